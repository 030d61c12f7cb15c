import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningEmulatorBin, startEmulatorBin } from '@parley/test-utils';
import { afterAll, describe, expect, test } from 'vitest';
import { type EmulatorProcess, startEmulatorProcess } from './_emulator-process';
import { recordFigure } from './_figures';
import { ACTIVE_CONNECTION } from './_request-arbitraries';

const dataDir = mkdtempSync(join(tmpdir(), 'parley-secrets-'));
let running: RunningEmulatorBin | undefined;
let fresh: EmulatorProcess | undefined;
afterAll(async () => {
  await running?.stop();
  fresh?.child.kill('SIGKILL');
  await fresh?.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

async function json(
  url: string,
  init: RequestInit = {},
  // biome-ignore lint/suspicious/noExplicitAny: the test reads arbitrary JSON answers
): Promise<{ status: number; text: string; body: any }> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, text, body };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  json(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('secrets are shown once', () => {
  test('a created key and signing secret never appear again: not in logs, errors, lists, the console or the data dir', async () => {
    running = await startEmulatorBin(['--data-dir', dataDir, '--clock', 'frozen']);
    const { ready } = running;
    const app = await post(`${ready.control_url}/applications`, { name: 'secrets', environment: 'sandbox' });
    const key = await post(`${ready.control_url}/applications/${app.body.id}/keys`, {
      scopes: ['messages.send', 'system.status.read'],
    });
    expect(key.status).toBe(201);
    const apiKey: string = key.body.key;
    const endpoint = await post(`${ready.control_url}/applications/${app.body.id}/endpoints`, {
      url: 'http://127.0.0.1:9/never',
      events: ['message.status_updated'],
    });
    const firstSecret: string = endpoint.body.secret;
    const rotated = await post(`${ready.control_url}/endpoints/${endpoint.body.id}/rotate-secret`, {});
    const secondSecret: string = rotated.body.secret;
    expect(apiKey).toMatch(/^prl_sandbox_[0-9A-Za-z]{32}$/);
    expect(firstSecret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(secondSecret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);

    // Everything a user or a script can read afterwards, errors included.
    const auth = { authorization: `Bearer ${apiKey}` };
    const seen: string[] = [];
    for (const path of ['/v1/status', '/v1/connections', '/v1/messages/x', '/v1/nope']) {
      seen.push((await json(`${ready.base_url.replace(/\/v1$/, '')}${path}`, { headers: auth })).text);
    }
    seen.push(
      (await post(`${ready.base_url}/messages`, { type: 'text' }, { ...auth, 'idempotency-key': 'k1' })).text,
    );
    seen.push((await post(`${ready.base_url}/messages`, '{', { ...auth, 'idempotency-key': 'k2' })).text);
    seen.push(
      (await json(`${ready.base_url}/status`, { headers: { authorization: `Bearer ${apiKey}x` } })).text,
    );
    for (const path of [
      'applications',
      'endpoints',
      'deliveries',
      'usage',
      'events',
      'messages',
      'workspaces',
      'health',
    ]) {
      seen.push((await json(`${ready.control_url}/${path}`)).text);
    }
    seen.push((await post(`${ready.control_url}/endpoints/${endpoint.body.id}/test`, {})).text);
    seen.push((await json(ready.console_url)).text);
    await running.stop();
    const logs = running.output();
    const files = readdirSync(dataDir).map((name) => readFileSync(join(dataDir, name), 'utf8'));

    for (const text of [...seen, logs]) {
      expect(text).not.toContain(apiKey);
      expect(text).not.toContain(apiKey.slice(-32));
      expect(text).not.toContain(firstSecret);
      expect(text).not.toContain(secondSecret);
    }
    // Keys are stored only as a SHA-256; signing secrets must be kept to sign (DESIGN §2), in files only the owner reads.
    for (const file of files) expect(file).not.toContain(apiKey.slice(-32));
    expect(files.some((file) => file.includes(secondSecret))).toBe(true);
    recordFigure({
      test: 'secrets shown once',
      load: `1 key + 2 signing secrets, then ${seen.length} reads, errors and the console, the process log and ${files.length} data-dir files`,
      proved: 'no key or secret appears after its one showing; keys are never in clear on disk',
      figures: `0 leaks in ${(seen.join('').length + logs.length).toLocaleString('en')} characters read; ${files.length} files checked`,
    });
  });

  test('a key or secret after a newline, a tab, an underscore or a letter, in a body, a path, a query or a header, is in neither /_emulator/stream nor /_emulator/activity', async () => {
    // The bin built from the current source: what is under review, not an older dist/.
    fresh = await startEmulatorProcess(['--clock', 'frozen']);
    const { base, control } = fresh;
    const stream = await fetch(`${control}/stream`);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let streamed = '';
    const streamedUntil = async (marker: string) => {
      while (!streamed.includes(marker)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${marker}`);
        streamed += decoder.decode(value, { stream: true });
      }
    };

    const app = await post(`${control}/applications`, { name: 'stream secrets', environment: 'sandbox' });
    const key = await post(`${control}/applications/${app.body.id}/keys`, { scopes: ['messages.send'] });
    const apiKey: string = key.body.key;
    const endpoint = await post(`${control}/applications/${app.body.id}/endpoints`, {
      url: `http://127.0.0.1:9/hook?token_${apiKey}`,
      events: ['message.status_updated'],
    });
    expect(endpoint.status).toBe(201);
    const secret: string = endpoint.body.secret;
    const auth = { authorization: `Bearer ${apiKey}` };
    let requests = 0;
    for (const before of ['\n', '\t', '_', 'a']) {
      const sent = await post(
        `${base}/messages`,
        {
          type: 'text',
          connection_id: ACTIVE_CONNECTION,
          to: '+33612345678',
          text: `${before}${apiKey}${before}${secret}`,
        },
        { ...auth, 'idempotency-key': `stream-secrets-${requests}`, 'x-note': `${before.trim()}${secret}` },
      );
      expect(sent.status).toBe(202);
      const path = `${base}/x${encodeURIComponent(before)}${apiKey}?q=${encodeURIComponent(before)}${secret}`;
      expect((await json(path, { headers: auth })).status).toBe(404);
      expect((await post(`${control}/clock/advance`, { ms: 1_000 })).status).toBe(200);
      requests += 3;
    }
    await json(`${base}/end-of-secrets`, { headers: auth });
    await streamedUntil('/v1/end-of-secrets');
    await reader.cancel();
    const listed = (await json(`${control}/activity?limit=100`)).text;

    for (const text of [streamed, listed]) {
      for (const hidden of [apiKey, apiKey.slice(16), secret, secret.slice(6)])
        expect(text).not.toContain(hidden);
      // Masked in place, not dropped: the texts are there with the masks.
      expect(text).toContain(`\\n${apiKey.slice(0, 16)}…\\nwhsec_…`);
      expect(text).toContain(`"text":"_${apiKey.slice(0, 16)}…_whsec_…"`);
      expect(text).toContain(`/v1/x_${apiKey.slice(0, 16)}…`);
    }
    recordFigure({
      test: 'secrets in the activity stream',
      load: `1 key + 1 signing secret typed after a newline, a tab, an underscore and a letter into ${requests} requests (bodies, paths, queries, headers, an endpoint URL); the stream and the list read`,
      proved:
        'no key or secret reaches GET /_emulator/stream or GET /_emulator/activity, whatever precedes it; it is masked where it was typed',
      figures: `0 leaks in ${(streamed.length + listed.length).toLocaleString('en')} characters streamed and listed`,
    });
  });
});
