// `parley webhooks doctor` as a process against the two example receivers (all green, exit 0)
// and against a receiver that trusts anything (each forgery caught, exit 1).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertCliBuilt, runCli } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReceiverApp } from '../../../examples/express-receiver/src/receiver';

const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJ01';
const servers: Server[] = [];

/** Listens on a loopback port; the receiver's webhook URL. */
async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/parley`;
}

/** Serves a web-standard `fetch` entry on node:http, as Deno's or Bun's server would. */
function fetchServer(handle: (request: Request) => Promise<Response>): Server {
  return createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers.set(name, value);
    const response = await handle(
      new Request(`http://127.0.0.1${req.url}`, {
        method: req.method ?? 'GET',
        headers,
        ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
      }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
}

let expressUrl: string;
let webStandardUrl: string;
let trustingUrl: string;

beforeAll(async () => {
  assertCliBuilt();
  // The examples log each event they handle; the test reads the doctor's report, not their logs.
  vi.spyOn(console, 'log').mockImplementation(() => {});
  const log = () => {};
  const express = createReceiverApp({
    secret: SECRET,
    on: { 'message.received': log, 'message.status_updated': log },
    onUnhandled: log,
  });
  expressUrl = await listen(createServer(express));
  // The web-standard example's default export reads its secret from the environment when loaded.
  process.env.PARLEY_WEBHOOK_SECRET = SECRET;
  const { default: webStandard } = await import(
    '../../../examples/web-standard-receiver/src/webhook-handler'
  );
  delete process.env.PARLEY_WEBHOOK_SECRET;
  webStandardUrl = await listen(fetchServer((request) => webStandard.fetch(request)));
  trustingUrl = await listen(
    createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end())),
  );
});
afterAll(async () => {
  vi.restoreAllMocks();
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

describe('parley webhooks doctor', () => {
  it.each([
    ['express-receiver', () => expressUrl],
    ['web-standard-receiver', () => webStandardUrl],
  ])('grades the %s example all green: exit 0', async (_, url) => {
    const { code, stdout, stderr } = await runCli(['webhooks', 'doctor', url(), '--json'], {
      PARLEY_WEBHOOK_SECRET: SECRET,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ url: url(), ok: true, counts: { passed: 8, failed: 0, unchecked: 0 } });
    expect(report.cases.map((each: { name: string }) => each.name)).toEqual([
      'valid',
      'duplicate',
      'bad_signature',
      'stale_timestamp',
      'tampered_body',
      'rotation',
      'out_of_order',
      'answer_time',
    ]);
  });

  it('catches a receiver that trusts anything: one ✗ line per forgery, exit 1', async () => {
    const { code, stdout } = await runCli(['webhooks', 'doctor', trustingUrl, '--secret', SECRET], {});
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`Webhook doctor: ${trustingUrl} (answers awaited 15 s)`);
    expect(lines.slice(1, -1).map((line) => line.split(/ {2,}/))).toEqual([
      ['✓ a valid delivery', expect.stringMatching(/^accepted: 200 in \d+ ms$/)],
      ['– the same event again', expect.stringContaining('without a Parley-Webhook-Outcome header')],
      [
        '✗ a bad signature',
        'accepted (200): anyone can forge a delivery it accepts: verify the signature on the raw body',
      ],
      [
        '✗ a timestamp 10 minutes old',
        'accepted (200): a captured delivery can be replayed later: check Parley-Timestamp (±300 s)',
      ],
      [
        '✗ a body changed after signing',
        'accepted (200): verify the exact raw bytes received, before any JSON parsing',
      ],
      ['✓ signed with two secrets (new first)', 'accepted both: 200 (yours second), 200 (yours first)'],
      [
        '– delivered, then sent, of one message',
        expect.stringContaining('without a Parley-Webhook-Outcome header'),
      ],
      ['✓ a valid delivery, timed', expect.stringMatching(/^answered in \d+ ms \(200\)$/)],
    ]);
    // The published guide: an installed CLI has no docs folder beside it.
    expect(lines.at(-1)).toBe(
      '3 passed, 3 failed, 2 not checked (see https://github.com/parley/parley-tooling/blob/main/docs/testing-your-app.md#grade-your-receiver-parley-webhooks-doctor)',
    );
  });

  it('is a usage error without a secret (exit 2)', async () => {
    const { code, stderr } = await runCli(['webhooks', 'doctor', trustingUrl], {});
    expect(code).toBe(2);
    expect(stderr).toContain('missing --secret');
  });
});
