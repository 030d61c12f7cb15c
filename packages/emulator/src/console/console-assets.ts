import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ConsoleBundle } from './console-bundle';

let loaded: Promise<ConsoleBundle> | undefined;

/**
 * The console's script and stylesheet: in the published package, the files the build wrote to
 * `dist/console/` (next to the emulator's chunks); running from source (tests, the repository),
 * bundled once from `app/` with esbuild, a development dependency only that path needs.
 */
export function loadConsoleAssets(): Promise<ConsoleBundle> {
  loaded ??= readBuilt().catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    const { buildConsoleBundle } = await import('./console-bundle');
    return buildConsoleBundle(fileURLToPath(new URL('./app/', import.meta.url)));
  });
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

async function readBuilt(): Promise<ConsoleBundle> {
  const [script, style] = await Promise.all([
    readFile(new URL('./console/console.js', import.meta.url), 'utf8'),
    readFile(new URL('./console/console-style.css', import.meta.url), 'utf8'),
  ]);
  return { script, style };
}
