import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningEmulatorBin, startEmulatorBin } from '@parley/test-utils';
import { afterAll, describe, expect, test } from 'vitest';
import { recordFigure } from './_figures';

const dataDir = mkdtempSync(join(tmpdir(), 'parley-secrets-'));
let running: RunningEmulatorBin | undefined;
afterAll(async () => {
  await running?.stop();
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
});
