import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { emulatorContext } from '../../_test/emulator-context';
import { configPath } from '../../config/config-file';
import { trigger } from '../trigger/index';
import { answerExcerpt, looksLikeVerificationFailure } from './_app-answer';
import { listen } from './index';

// Generous on a loaded machine: these wait for real I/O, never for emulator time.
const PATIENCE = { timeout: 10_000, interval: 10 };
const FORWARD_TO = 'http://127.0.0.1:3000/webhooks';
const CHOSEN = 'whsec_0123456789abcdefghijABCDEFGHIJ01';

/** A local app that answers every delivery with `status` and `body`. */
async function startApp(status: number, body: string) {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(status, { 'content-type': 'application/json' }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    close: () => server.close(),
  };
}

describe('parley listen: one secret per forward URL and profile', () => {
  const configHome = mkdtempSync(join(tmpdir(), 'parley-listen-secret-'));
  const env = { XDG_CONFIG_HOME: configHome };
  const { emulator, context } = emulatorContext({}, env);
  afterAll(async () => {
    await emulator.close();
    rmSync(configHome, { recursive: true, force: true });
  });
  // --print-secret makes no call: any request would fail this context.
  const offline = () => context({ fetch: () => Promise.reject(new Error('no network expected')) });

  /** Runs listen until it is ready, then stops it; returns its ready line. */
  async function listenOnce(options: Parameters<typeof listen>[0]) {
    const controller = new AbortController();
    const run = context({ json: true, signal: controller.signal });
    const listening = listen(options, run).catch((error: unknown) => error);
    await vi.waitFor(() => expect(run.stdout.text()).toContain('"ready":true'), PATIENCE);
    controller.abort();
    await listening;
    return JSON.parse(run.stdout.text().split('\n')[0]!) as { secret: string; endpoint_id: string };
  }

  it('--print-secret prints the secret saved for the URL, without any call, and listen signs with it', async () => {
    const printed = await listen({ forwardTo: FORWARD_TO, printSecret: true }, offline());
    expect(printed).toEqual({
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9]{32}$/),
      forward_to: FORWARD_TO,
      profile: 'default',
    });
    expect(await listen({ forwardTo: FORWARD_TO, printSecret: true }, offline())).toEqual(printed);
    expect((await listenOnce({ forwardTo: FORWARD_TO })).secret).toBe((printed as { secret: string }).secret);
    expect((await listenOnce({ forwardTo: FORWARD_TO })).secret).toBe((printed as { secret: string }).secret);

    const path = configPath(env);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8')).profiles.default.listen_secrets).toEqual({
      [FORWARD_TO]: (printed as { secret: string }).secret,
    });
  });

  it('another URL or another profile gets another secret', async () => {
    const first = await listen({ forwardTo: FORWARD_TO, printSecret: true }, offline());
    const otherUrl = await listen({ forwardTo: 'http://127.0.0.1:3001/hooks', printSecret: true }, offline());
    const otherProfile = await listen(
      { forwardTo: FORWARD_TO, printSecret: true },
      context({
        env: { ...env, PARLEY_PROFILE: 'staging' },
        fetch: () => Promise.reject(new Error('offline')),
      }),
    );
    expect(
      new Set([first, otherUrl, otherProfile].map((result) => (result as { secret: string }).secret)).size,
    ).toBe(3);
    expect(otherProfile).toMatchObject({ profile: 'staging' });
  });

  it('--secret signs with the given secret for this run only; another shape is a usage error', async () => {
    const saved = (await listen({ forwardTo: FORWARD_TO, printSecret: true }, offline())) as {
      secret: string;
    };
    expect((await listenOnce({ forwardTo: FORWARD_TO, secret: CHOSEN })).secret).toBe(CHOSEN);
    expect(await listen({ forwardTo: FORWARD_TO, printSecret: true }, offline())).toMatchObject({
      secret: saved.secret,
    });
    await expect(listen({ forwardTo: FORWARD_TO, secret: 'whsec_short' }, context())).rejects.toMatchObject({
      code: 2,
      message: expect.stringContaining('--secret must be whsec_'),
    });
  });

  it('shows the start of a 4xx answer, and on a refused signature says the secret may be stale', async () => {
    const app = await startApp(400, JSON.stringify({ error: 'signature_mismatch', detail: 'x'.repeat(300) }));
    const controller = new AbortController();
    const run = context({ signal: controller.signal });
    const listening = listen({ forwardTo: app.url, events: 'webhook.test' }, run).catch(
      (error: unknown) => error,
    );
    await vi.waitFor(() => expect(run.stdout.text()).toContain('Ready!'), PATIENCE);
    await trigger({ eventType: 'webhook.test' }, context());
    await emulator.clock.advance(0);
    await vi.waitFor(() => expect(run.stdout.text()).toContain('may be stale'), PATIENCE);
    controller.abort();
    await listening;
    app.close();
    const lines = run.stdout.text().split('\n');
    const answer = lines.find((line) => line.includes('answer:'))!;
    expect(answer).toMatch(/^ {10}answer: \{"error":"signature_mismatch","detail":"x+…$/);
    expect(answer.slice(answer.indexOf('{')).length).toBe(201);
    expect(run.stdout.text()).toContain(
      `Your app refused the signature: its PARLEY_WEBHOOK_SECRET may be stale. This listen signs with the secret printed above (\`parley listen --forward-to ${app.url} --print-secret\`)`,
    );
  });
});

describe('the app answer as listen shows it', () => {
  it('keeps the first 200 bytes on one line, without control characters', () => {
    expect(answerExcerpt(new TextEncoder().encode('bad\r\n\u001b[31mred\u202Eevil'))).toBe(
      'bad [31mred evil',
    );
    expect(answerExcerpt(new TextEncoder().encode('é'.repeat(150)))).toBe(`${'é'.repeat(100)}…`);
  });

  it('suspects a stale secret only on a 400 that speaks of the signature', () => {
    expect(looksLikeVerificationFailure(400, '{"error":"signature_mismatch"}')).toBe(true);
    expect(looksLikeVerificationFailure(400, 'Webhook verification failed: timestamp_out_of_range')).toBe(
      true,
    );
    expect(looksLikeVerificationFailure(400, '{"error":"unknown order"}')).toBe(false);
    expect(looksLikeVerificationFailure(401, 'signature')).toBe(false);
    expect(looksLikeVerificationFailure(400, null)).toBe(false);
  });
});
