import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createWebhookHandler, type WebhookHandlerSettings } from '@parley/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort, testContext } from '../../_test/test-context';
import { EXIT } from '../../exit-error';
import { receivedEvent } from './_doctor-events';
import { deliverer } from './_doctor-post';
import doctorCommand, { type DoctorReport, doctor } from './doctor';

const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJ01';
const servers: Server[] = [];

/** Serves `listener` on a loopback port; its URL. */
async function serve(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A receiver as the docs build it, with some of its protections changed. */
function sdkReceiver(settings: Partial<WebhookHandlerSettings> = {}): Promise<string> {
  const handler = createWebhookHandler({
    secret: SECRET,
    on: { 'message.received': () => {}, 'message.status_updated': () => {} },
    ...settings,
  });
  return serve(handler.node());
}

/** Runs the doctor against `url`; the report with each case reduced to its name and result. */
async function grade(url: string, timeout?: string) {
  const report = await doctor({ url, secret: [SECRET], ...(timeout ? { timeout } : {}) }, testContext());
  return {
    report,
    results: Object.fromEntries(report.cases.map((each) => [each.name, each.result])),
  };
}

const ALL_PASSED = {
  valid: 'passed',
  duplicate: 'passed',
  bad_signature: 'passed',
  stale_timestamp: 'passed',
  tampered_body: 'passed',
  rotation: 'passed',
  out_of_order: 'passed',
  answer_time: 'passed',
};

describe('parley webhooks doctor', () => {
  it('passes a receiver built on createWebhookHandler: every case green, exit 0, a report line each', async () => {
    const url = await sdkReceiver();
    const { report, results } = await grade(url);
    expect(results).toEqual(ALL_PASSED);
    expect(report).toMatchObject({
      url,
      ok: true,
      timeout_ms: 15_000,
      counts: { passed: 8, failed: 0, unchecked: 0 },
    });
    expect(report.cases.find((each) => each.name === 'duplicate')).toMatchObject({
      reason: 'acknowledged without processing: 204, outcome duplicate',
      deliveries: [{ status: 204, outcome: 'duplicate', error: null }],
    });
    expect(report.cases.find((each) => each.name === 'bad_signature')?.reason).toMatch(
      /^refused: 400 \{"error":"signature_mismatch"\} in \d+ ms$/,
    );
    expect(report.cases.find((each) => each.name === 'stale_timestamp')?.reason).toMatch(
      /^refused: 400 \{"error":"timestamp_out_of_range"\} in \d+ ms$/,
    );
    expect(doctorCommand.exitCode?.(report)).toBe(EXIT.ok);

    const context = testContext();
    const lines = doctorCommand.render!(report, context).split('\n');
    expect(lines[0]).toBe(`Webhook doctor: ${url} (answers awaited 15 s)`);
    // Titles are padded to one column: each line is the mark and title, two spaces, the reason.
    expect(lines.slice(1, -1).map((line) => line.split(/ {2,}/)[0])).toEqual([
      '✓ a valid delivery',
      '✓ the same event again',
      '✓ a bad signature',
      '✓ a timestamp 10 minutes old',
      '✓ a body changed after signing',
      '✓ signed with two secrets (new first)',
      '✓ delivered, then sent, of one message',
      '✓ a valid delivery, timed',
    ]);
    expect(new Set(lines.slice(1, -1).map((line) => line.search(/ {2}\S/)))).toEqual(new Set([38]));
    expect(lines.at(-1)).toBe('8 passed, 0 failed');
  });

  it('fails a receiver that accepts anything: forged, stale and tampered deliveries; cannot see dedupe', async () => {
    const url = await serve((request, response) => {
      request.resume().on('end', () => response.writeHead(204).end());
    });
    const { report, results } = await grade(url);
    expect(results).toEqual({
      ...ALL_PASSED,
      duplicate: 'unchecked',
      bad_signature: 'failed',
      stale_timestamp: 'failed',
      tampered_body: 'failed',
      out_of_order: 'unchecked',
    });
    expect(report.counts).toEqual({ passed: 3, failed: 3, unchecked: 2 });
    expect(report.cases.find((each) => each.name === 'bad_signature')?.reason).toBe(
      'accepted (204): anyone can forge a delivery it accepts: verify the signature on the raw body',
    );
    expect(report.cases.find((each) => each.name === 'duplicate')?.reason).toBe(
      'accepted (204), but without a Parley-Webhook-Outcome header its answer cannot show whether it was processed',
    );
    expect(doctorCommand.exitCode?.(report)).toBe(EXIT.api);
  });

  it('fails a receiver without deduplication on the duplicate only', async () => {
    const { report, results } = await grade(await sdkReceiver({ dedupe: false }));
    expect(results).toEqual({ ...ALL_PASSED, duplicate: 'failed' });
    expect(report.cases.find((each) => each.name === 'duplicate')?.reason).toBe(
      'processed it (204, outcome processed): deliveries are at least once: deduplicate by Parley-Event-Id',
    );
  });

  it('fails a receiver that processes stale statuses on the out-of-order pair only', async () => {
    const { report, results } = await grade(await sdkReceiver({ dropStaleStatuses: false }));
    expect(results).toEqual({ ...ALL_PASSED, out_of_order: 'failed' });
    expect(
      report.cases.find((each) => each.name === 'out_of_order')?.deliveries.map((each) => each.outcome),
    ).toEqual(['processed', 'processed']);
  });

  it('fails a receiver answering 500 to everything on every case, the timed one too', async () => {
    const { report, results } = await grade(
      await serve((_, response) => response.writeHead(500).end('{"error":"boom"}')),
    );
    expect(results).toEqual({
      valid: 'failed',
      duplicate: 'failed',
      bad_signature: 'failed',
      stale_timestamp: 'failed',
      tampered_body: 'failed',
      rotation: 'failed',
      out_of_order: 'failed',
      // A 500 is a failed attempt however fast it comes.
      answer_time: 'failed',
    });
    expect(report.cases.find((each) => each.name === 'bad_signature')?.reason).toMatch(
      /^answered 500 \{"error":"boom"\} in \d+ ms: refuse it with a 4xx/,
    );
  });

  // Only a 2xx passes the timed delivery, as for Parley: the bounds of 2xx, every redirect, a 4xx, a 5xx.
  it.each([
    [200, '✓', 'answered in {ms} ms (200)'],
    [204, '✓', 'answered in {ms} ms (204)'],
    [299, '✓', 'answered in {ms} ms (299)'],
    [
      300,
      '✗',
      'answered 300 in {ms} ms: Parley never follows redirects: point the endpoint at the final URL',
    ],
    [
      307,
      '✗',
      'answered 307 in {ms} ms: Parley never follows redirects: point the endpoint at the final URL',
    ],
    [
      308,
      '✗',
      'answered 308 in {ms} ms: Parley never follows redirects: point the endpoint at the final URL',
    ],
    [400, '✗', "answered 400 in {ms} ms: a delivery signed like Parley's must get 2xx"],
    [
      500,
      '✗',
      'answered 500 in {ms} ms: a delivery signed like Parley’s must get 2xx; Parley retries this one for about 20.5 h',
    ],
  ])('grades a timed answer of %i %s', async (status, mark, reason) => {
    const followed: string[] = [];
    const url = await serve((request, response) => {
      if (request.url !== '/webhooks') followed.push(request.url ?? '');
      request.resume().on('end', () => response.writeHead(status, { location: '/elsewhere' }).end());
    });
    const { report } = await grade(url);
    const timed = report.cases.find((each) => each.name === 'answer_time')!;
    expect(timed).toMatchObject({
      title: 'a valid delivery, timed',
      expected: '2xx within 15 s',
      result: mark === '✓' ? 'passed' : 'failed',
      deliveries: [{ status, error: null }],
    });
    // The exact wording, with the time this answer took.
    expect(timed.reason).toBe(reason.replace('{ms}', String(timed.deliveries[0]!.duration_ms)));
    const line = doctorCommand.render!(report, testContext())
      .split('\n')
      .find((each) => each.includes('a valid delivery, timed'));
    expect(line).toBe(`${mark} a valid delivery, timed               ${timed.reason}`);
    expect(followed).toEqual([]);
  });

  it('reads at most 64 KiB of an answer: 64 KiB whole, a byte more or an endless body cut, and says so', async () => {
    const chunk = Buffer.alloc(16 * 1024, 'a');
    // Answers 400 with `size` bytes of "a", or without end until the doctor hangs up.
    const answering = (size: number) =>
      serve((request, response) => {
        request.resume().on('end', () => {
          response.writeHead(400, { 'content-type': 'text/plain' });
          response.on('error', () => {});
          let left = size;
          const pump = () => {
            while (left > 0 && !response.destroyed) {
              const piece = chunk.subarray(0, Math.min(chunk.length, left));
              left -= piece.length;
              if (!response.write(piece)) return;
            }
            if (left === 0) response.end();
          };
          response.on('drain', pump);
          pump();
        });
      });
    for (const [size, cut] of [
      [64 * 1024, false],
      [64 * 1024 + 1, true],
      [Number.POSITIVE_INFINITY, true],
    ] as const) {
      const { report } = await grade(await answering(size), '5');
      const forged = report.cases.find((each) => each.name === 'bad_signature')!;
      const [answer] = forged.deliveries;
      expect(answer).toMatchObject({ status: 400, error: null, body: `${'a'.repeat(200)}…`, body_cut: cut });
      expect(forged).toMatchObject({
        result: 'passed',
        reason: `refused: 400 ${'a'.repeat(200)}…${cut ? ' (answer over 64 KiB: read no further)' : ''} in ${answer!.duration_ms} ms`,
      });
    }
  });

  it('ends an answer whose body stalls at the timeout, even after a garbage collection during the read', async () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const url = await serve((request, response) => {
      request.resume().on('end', () => {
        response.writeHead(200, { 'content-type': 'text/plain' }).write('the start, then nothing');
        // Collected while the doctor waits for the rest, before its timeout.
        setTimeout(() => {
          collectGarbage();
          collectGarbage();
        }, 50);
      });
    });
    const deliver = deliverer(url, 300, (request) => fetch(request), new AbortController().signal);
    expect(await deliver(receivedEvent(), { secrets: [SECRET] })).toMatchObject({
      status: null,
      body: '',
      body_cut: false,
      error: 'no answer within 0.3 s',
    });
  });

  it('fails a receiver too slow for --timeout on every delivery it processes', async () => {
    const url = await sdkReceiver({
      on: { 'message.received': () => new Promise((resolve) => setTimeout(resolve, 1_000)) },
      onUnhandled: () => new Promise((resolve) => setTimeout(resolve, 1_000)),
    });
    const { report, results } = await grade(url, '0.1');
    expect(results).toEqual({
      ...ALL_PASSED,
      valid: 'failed',
      duplicate: 'failed',
      rotation: 'failed',
      out_of_order: 'failed',
      answer_time: 'failed',
    });
    expect(report.timeout_ms).toBe(100);
    expect(report.cases.find((each) => each.name === 'answer_time')?.reason).toBe(
      'no answer within 0.1 s: Parley counts it as failed and retries; answer first, work later',
    );
  });

  it('says a receiver that is not running is unreachable (exit 3), and refuses bad flags (exit 2)', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/webhooks`;
    await expect(doctor({ url, secret: [SECRET] }, testContext())).rejects.toMatchObject({
      code: EXIT.config,
      message: `could not reach ${url} (ECONNREFUSED): is your receiver running?`,
    });
    await expect(doctor({ url, secret: [SECRET], timeout: '16' }, testContext())).rejects.toMatchObject({
      code: EXIT.usage,
      message: '--timeout must be seconds above 0 and at most 15, got "16"',
    });
    await expect(doctor({ url: 'ftp://x', secret: [SECRET] }, testContext())).rejects.toMatchObject({
      code: EXIT.usage,
    });
    await expect(doctor({ url }, testContext())).rejects.toMatchObject({ code: EXIT.usage });
  });

  it('takes the secret from PARLEY_WEBHOOK_SECRET', async () => {
    const url = await sdkReceiver();
    const report: DoctorReport = await doctor(
      { url },
      testContext({ env: { PARLEY_WEBHOOK_SECRET: SECRET } }),
    );
    expect(report.ok).toBe(true);
  });
});
