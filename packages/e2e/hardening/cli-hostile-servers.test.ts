// The built CLI against hostile peers at full size (issue 21), its memory read from /proc while it
// runs: an activity stream with one endless line, an event of data lines that never ends and a
// 300 MB line; a receiver whose answer never ends; a 300 MB POST to listen's receiver. Before the
// bounds these took 1.4 GB, 2.1 GB, quadratic time, over 2.5 GB and 1.9 GB.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { assertCliBuilt, type CliProcess, startCli } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  postHuge,
  repeated,
  send,
  sseItem,
  startHostileServer,
  startStream,
  watchMemory,
} from '../test/_hostile-servers';
import { recordFigure } from './_figures';

const MiB = 1024 * 1024;
// Generous: the CLI is about 90 MB resident; reading a stream flat out, fetch's chunks waiting for
// the garbage collector bring it to about 160 MB. Unbounded, these attacks took gigabytes.
const RSS_LIMIT = 384 * MiB;
const SKIPPED = 'Skipped an event over 1 MiB: the rest of it is read without being kept; still following';
const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJ01';

beforeAll(() => assertCliBuilt());

const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;
const lines = (text: string) => text.trim().split('\n');

/** Runs `cli` under a memory watch; what it printed, its exit code and its peak RSS. */
async function measured(cli: CliProcess, work: () => Promise<void>) {
  const memory = watchMemory(cli.child.pid!, RSS_LIMIT);
  try {
    await work();
    const peak = memory.peak();
    cli.child.kill('SIGINT');
    const result = await cli.exited;
    expect(memory.killed(), `RSS passed ${mb(RSS_LIMIT)}`).toBe(false);
    return { ...result, peak };
  } finally {
    memory.stop();
    cli.child.kill('SIGKILL');
  }
}

/**
 * `parley logs tail --json` against a stream that sends item 1, then `hostile`, then ends the event
 * and sends item 2: the peak RSS, the bytes sent and the time from item 1 to item 2.
 */
async function tailThrough(hostile: Iterable<Uint8Array | string>) {
  const sent = { bytes: 0 };
  let first = 0;
  const server = await startHostileServer(async (_, response) => {
    startStream(response);
    await send(response, [sseItem(1)], sent);
    first = performance.now();
    await send(response, hostile, sent);
    await send(response, ['\n\n', sseItem(2)], sent);
  });
  const tail = startCli(['logs', 'tail', '--json'], { PARLEY_BASE_URL: `${server.origin}/v1` });
  try {
    let seconds = 0;
    const result = await measured(tail, async () => {
      await tail.waitFor('"seq":2');
      seconds = (performance.now() - first) / 1000;
    });
    expect(result.code).toBe(130);
    expect(lines(result.stdout).map((line) => JSON.parse(line).seq)).toEqual([1, 2]);
    expect(result.stderr).toBe(`Following the activity of ${server.origin} (Ctrl-C to stop)\n${SKIPPED}\n`);
    return { peak: result.peak, sentBytes: sent.bytes, seconds };
  } finally {
    await server.close();
  }
}

describe('parley logs tail against a hostile activity stream', () => {
  const chunk = Buffer.alloc(64 * 1024, 0x78);
  const runs: Record<string, Awaited<ReturnType<typeof tailThrough>>> = {};
  afterAll(() => {
    const { endless, dataLines, long } = runs;
    if (!endless || !dataLines || !long) return;
    const rate = (run: typeof endless) =>
      `${run.seconds.toFixed(1)} s (${mb(run.sentBytes / run.seconds)}/s)`;
    recordFigure({
      test: 'cli: hostile activity stream',
      load: 'parley logs tail against a stream of 512 MiB in one line, 256 MiB of 1 KiB data lines in one event, and a 300 MB line, in 64 KiB chunks',
      proved:
        'each oversized event is told once on stderr, read to its end without being kept, and the item after it is printed; memory stays bounded and the parse is linear',
      figures: [
        `512 MiB line: ${rate(endless)}, CLI peak RSS ${mb(endless.peak)}`,
        `256 MiB of data lines: ${rate(dataLines)}, ${mb(dataLines.peak)}`,
        `300 MB line: ${rate(long)}, ${mb(long.peak)}`,
      ].join('; '),
    });
  });

  it('one endless line (512 MiB and counting): one notice, RSS bounded, the item after it printed', async () => {
    runs.endless = await tailThrough(
      (function* () {
        yield 'data: ';
        yield* repeated(chunk, { total: 512 * MiB });
      })(),
    );
    expect(runs.endless.peak).toBeLessThan(RSS_LIMIT);
  });

  it('an event of data lines that never ends (256 MiB of 1 KiB lines): one notice, RSS bounded', async () => {
    const line = Buffer.from(`data: ${'y'.repeat(1017)}\n`);
    runs.dataLines = await tailThrough(
      repeated(Buffer.concat(Array.from({ length: 64 }, () => line)), { total: 256 * MiB }),
    );
    expect(runs.dataLines.peak).toBeLessThan(RSS_LIMIT);
  });

  it('a 300 MB line in 64 KiB chunks: read in linear time, RSS bounded', async () => {
    runs.long = await tailThrough(
      (function* () {
        yield 'data: ';
        yield* repeated(chunk, { total: 300 * 1e6 });
      })(),
    );
    expect(runs.long.peak).toBeLessThan(RSS_LIMIT);
  });
});

describe('parley webhooks doctor against a receiver whose answer never ends', () => {
  it('cuts each of the 10 answers at 64 KiB: the battery ends at once, RSS bounded', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const sent = { bytes: 0 };
    const receiver = await startHostileServer((request, response) => {
      request.resume().on('end', () => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        void send(response, repeated(chunk, {}), sent);
      });
    });
    try {
      const doctor = startCli(
        ['webhooks', 'doctor', `${receiver.origin}/webhooks`, '--secret', SECRET, '--json'],
        {},
      );
      const started = performance.now();
      const memory = watchMemory(doctor.child.pid!, RSS_LIMIT);
      const { code, stdout } = await doctor.exited;
      memory.stop();
      const seconds = (performance.now() - started) / 1000;
      expect(memory.killed()).toBe(false);
      expect(code).toBe(1);
      const deliveries = (
        JSON.parse(stdout) as { cases: { deliveries: { status: number; body_cut: boolean }[] }[] }
      ).cases.flatMap((each) => each.deliveries);
      expect(deliveries.map(({ status, body_cut }) => ({ status, body_cut }))).toEqual(
        Array.from({ length: 10 }, () => ({ status: 200, body_cut: true })),
      );
      expect(memory.peak()).toBeLessThan(RSS_LIMIT);
      recordFigure({
        test: 'cli: endless receiver answer',
        load: 'parley webhooks doctor against a receiver answering each of its 10 deliveries with a body that never ends',
        proved:
          'each answer is read up to 64 KiB, then cancelled and reported cut; the battery completes without waiting for the 15 s timeout',
        figures: `10 answers cut; ${seconds.toFixed(1)} s; receiver wrote ${mb(sent.bytes)} in all; CLI peak RSS ${mb(memory.peak())}`,
      });
    } finally {
      await receiver.close();
    }
  });
});

describe('parley listen against a 300 MB POST', () => {
  let emulator: EmulatorServer;
  let configHome: string;
  let app: Server;
  let appUrl: string;
  const received: number[] = [];
  beforeAll(async () => {
    emulator = await startEmulatorServer({ port: 0, clock: 'frozen' });
    configHome = await mkdtemp(join(tmpdir(), 'parley-cli-hostile-'));
    app = createServer((request, response) => {
      let size = 0;
      request.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      request.on('end', () => {
        received.push(size);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhooks`;
  });
  afterAll(async () => {
    app?.close();
    await emulator?.close();
    await rm(configHome, { recursive: true, force: true });
  });

  it('answers 413 at once and closes the connection: nothing kept or forwarded, RSS bounded', async () => {
    const listening = startCli(['listen', '--forward-to', appUrl, '--json'], {
      PARLEY_API_KEY: emulator.sandboxKey,
      PARLEY_BASE_URL: emulator.baseUrl,
      XDG_CONFIG_HOME: configHome,
    });
    let answer: Awaited<ReturnType<typeof postHuge>> | undefined;
    const result = await measured(listening, async () => {
      await listening.waitFor('"ready":true');
      const ready = JSON.parse(lines(listening.stdout())[0]!);
      const listed = await fetch(`${emulator.controlUrl}/endpoints?application_id=${ready.application_id}`);
      const { data } = (await listed.json()) as { data: { id: string; url: string }[] };
      answer = await postHuge(data.find((endpoint) => endpoint.id === ready.endpoint_id)!.url, 300 * 1e6);
      await listening.waitFor('Refused a request of more than 1 MiB');
    });
    expect(answer).toMatchObject({ status: 413, body: '{"error":"payload_too_large"}' });
    // The answer came while the sender was still writing, and the connection ended with it.
    expect(answer!.sentBytes).toBeLessThan(300 * 1e6);
    expect(received).toEqual([]);
    expect(result.stderr).toBe(
      'Refused a request of more than 1 MiB to the listener (413): no delivery is that large\nStopped; temporary endpoint removed.\n',
    );
    expect(result.peak).toBeLessThan(RSS_LIMIT);
    recordFigure({
      test: 'cli: 300 MB POST to listen',
      load: "a 300 MB POST (Content-Length declared) to parley listen's receiver, written as fast as it reads",
      proved:
        'answered 413 payload_too_large as soon as the declared length is read, nothing kept nor forwarded, then a lingering close (the rest read and dropped until the sender stops, at most 16 MiB or 5 s) so a busy sender still reads its 413; listen goes on',
      figures: `413; sender got ${mb(answer!.sentBytes)} out before the close; 0 forwarded; CLI peak RSS ${mb(result.peak)}`,
    });
  });
});
