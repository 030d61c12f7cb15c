import { render } from 'preact';
import { App } from './app';
import { readConsoleConfig } from './console-config';

const root = document.getElementById('app');
if (root) render(<App config={readConsoleConfig()} />, root);
