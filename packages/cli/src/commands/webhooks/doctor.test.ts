import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, type WebhookHandlerSettings } from '@parley/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort, testContext } from '../../_test/test-context';
import { EXIT } from '../../exit-error';
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

  it('fails a receiver answering 500 to everything on all but the answer time', async () => {
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
      answer_time: 'passed',
    });
    expect(report.cases.find((each) => each.name === 'bad_signature')?.reason).toMatch(
      /^answered 500 \{"error":"boom"\} in \d+ ms: refuse it with a 4xx/,
    );
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
