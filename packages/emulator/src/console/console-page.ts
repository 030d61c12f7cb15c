import { createHash } from 'node:crypto';
import { SCOPES, WEBHOOK_EVENT_TYPES } from '@parley/sdk';
import { CONSOLE_SCRIPT_BASE } from './_console-script-base';
import { CONSOLE_SCRIPT_BINDINGS } from './_console-script-bindings';
import { CONSOLE_SCRIPT_SECTIONS } from './_console-script-sections';
import { CONSOLE_STYLE } from './_console-style';

const BODY = `
<header>
  <h1>Parley <span>emulator console</span></h1>
  <div class="clock" role="group" aria-label="Emulator clock">
    <span>Now: <output id="clock-now" aria-live="off">…</output></span>
    <span class="badge muted" id="clock-mode" title="Clock mode">…</span>
    <button type="button" data-advance-ms="1000">+1 s</button>
    <button type="button" data-advance-ms="5000">+5 s</button>
    <button type="button" data-advance-ms="60000">+1 min</button>
    <button type="button" data-advance-ms="3600000">+1 h</button>
  </div>
  <button type="button" id="refresh">Refresh</button>
  <button type="button" id="reset" class="danger">Reset</button>
</header>
<div id="announcer">
  <p id="status-message" role="status" aria-live="polite"></p>
  <p id="error-message" role="alert" class="error"></p>
</div>
<main>
  <section id="applications" aria-labelledby="applications-title">
    <h2 id="applications-title">Application</h2>
    <div class="field">
      <label for="app-select">Current application</label>
      <select id="app-select"></select>
    </div>
    <details>
      <summary>New application</summary>
      <form id="app-form" class="row">
        <div class="field"><label for="app-name">Name</label><input type="text" id="app-name" name="name" required maxlength="200"></div>
        <div class="field"><label for="app-environment">Environment</label>
          <select id="app-environment" name="environment"><option value="sandbox">sandbox</option><option value="live">live</option></select></div>
        <button type="submit" class="primary">Create application</button>
      </form>
    </details>
  </section>
  <section id="keys" aria-labelledby="keys-title" hidden>
    <h2 id="keys-title">API keys and usage</h2>
    <form id="key-form">
      <fieldset id="key-scopes"><legend>Scopes</legend></fieldset>
      <div class="field" id="key-agreement-field" hidden>
        <label><input type="checkbox" name="accept_agreement"> I accept the developer agreement (needed for a workspace's first live key)</label>
      </div>
      <button type="submit" class="primary">Create key</button>
    </form>
    <div id="key-secret"></div>
    <div id="usage-list"></div>
  </section>
  <section id="endpoints" class="wide" aria-labelledby="endpoints-title" hidden>
    <h2 id="endpoints-title">Webhook endpoints</h2>
    <form id="endpoint-form">
      <div class="field"><label for="endpoint-url">URL</label>
        <input type="url" id="endpoint-url" name="url" required placeholder="http://127.0.0.1:3000/webhooks"></div>
      <fieldset id="endpoint-events"><legend>Events</legend></fieldset>
      <button type="submit" class="primary">Add endpoint</button>
    </form>
    <div id="endpoint-secret"></div>
    <div id="endpoint-list"></div>
  </section>
  <section id="deliveries" class="wide" aria-labelledby="deliveries-title" hidden>
    <h2 id="deliveries-title">Deliveries</h2>
    <div id="delivery-list"></div>
  </section>
  <section id="messages" aria-labelledby="messages-title" hidden>
    <h2 id="messages-title">Recent messages</h2>
    <div id="message-list"></div>
  </section>
  <section id="events" aria-labelledby="events-title" hidden>
    <h2 id="events-title">Recent events</h2>
    <div id="event-list"></div>
  </section>
</main>`;

const SCRIPT = `(() => {\n'use strict';\n${CONSOLE_SCRIPT_BASE}${CONSOLE_SCRIPT_SECTIONS}${CONSOLE_SCRIPT_BINDINGS}})();\n`;

// `<` escaped so the JSON can never close its script element.
const CONFIG = JSON.stringify({ scopes: SCOPES, eventTypes: WEBHOOK_EVENT_TYPES }).replaceAll('<', '\\u003c');

let page: string | undefined;

function contentSecurityPolicy(): string {
  const scriptHash = createHash('sha256').update(SCRIPT).digest('base64');
  return [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}'`,
    "style-src 'unsafe-inline'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * Headers the console page is served with. `frame-ancestors` works only as a header (not in the
 * page's meta tag), and `X-Frame-Options` covers older browsers: no foreign page can frame the
 * console and trick a click on Reset or Rotate.
 */
export function consoleHeaders(): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `${contentSecurityPolicy()}; frame-ancestors 'none'`,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}

/**
 * The web console served at `/`: one self-contained HTML document (inline CSS and script, no
 * external asset) driving the control API on the same origin. Its Content-Security-Policy
 * allows only this exact script (by hash) and same-origin requests.
 */
export function renderConsolePage(): string {
  if (page !== undefined) return page;
  const policy = contentSecurityPolicy();
  page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="referrer" content="no-referrer">
<title>Parley emulator console</title>
<style>${CONSOLE_STYLE}</style>
</head>
<body>${BODY}
<script type="application/json" id="console-config">${CONFIG}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
  return page;
}
