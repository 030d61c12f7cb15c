import { createHash } from 'node:crypto';
import { SCOPES, WEBHOOK_EVENT_TYPES } from '@parley/sdk';
import type { ConsoleConfig } from './app/console-config';
import { loadConsoleAssets } from './console-assets';
import type { ConsoleBundle } from './console-bundle';

/** The console page and the headers it is served with. */
export interface ConsolePage {
  html: string;
  headers: Record<string, string>;
}

let bundle: Promise<ConsoleBundle> | undefined;

/**
 * The web console served at `/`: one HTML document with the bundled script and stylesheet
 * inline (no other request, no CDN, no web font: it works offline), driving the control API on the
 * same origin. Its Content-Security-Policy allows exactly this script and stylesheet (by hash) and
 * same-origin requests; `frame-ancestors` (a header only) and `X-Frame-Options` keep foreign pages
 * from framing it to trick a click on Reset or Rotate.
 */
export async function renderConsolePage(clock: ConsoleConfig['clock']): Promise<ConsolePage> {
  bundle ??= loadConsoleAssets();
  bundle.catch(() => {
    bundle = undefined;
  });
  return consolePage(await bundle, { scopes: [...SCOPES], eventTypes: [...WEBHOOK_EVENT_TYPES], clock });
}

/** Builds the page around a bundle, with what the page needs at its first paint. */
export function consolePage(bundle: ConsoleBundle, config: ConsoleConfig): ConsolePage {
  const policy = contentSecurityPolicy(bundle);
  // `<` escaped so the JSON can never close its script element.
  const configJson = JSON.stringify(config).replaceAll('<', '\\u003c');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="referrer" content="no-referrer">
<title>Parley emulator console</title>
<style>${bundle.style}</style>
</head>
<body>
<div id="app"></div>
<script type="application/json" id="console-config">${configJson}</script>
<script>${bundle.script}</script>
</body>
</html>
`;
  return {
    html,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `${policy}; frame-ancestors 'none'`,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    },
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

function contentSecurityPolicy({ script, style }: ConsoleBundle): string {
  return [
    "default-src 'none'",
    `script-src 'sha256-${sha256(script)}'`,
    `style-src 'sha256-${sha256(style)}'`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
