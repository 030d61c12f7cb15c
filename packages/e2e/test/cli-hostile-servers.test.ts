// The built CLI against hostile peers on loopback (issue 21): an activity stream that never ends a
// line or an event, a receiver whose answer never ends, a sender of a body far over any delivery.
// Each read is bounded: the CLI says what it skipped or cut and goes on. The same attacks at full
// size, with the CLI's memory measured, are in hardening/cli-hostile-servers.test.ts.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { createControlClient } from '@parley/emulator/control';
import { assertCliBuilt, runCli, startCli } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postHuge, repeated, send, sseItem, startHostileServer, startStream } from './_hostile-servers';

const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJ01';
const MiB = 1024 * 1024;
const SKIPPED = 'Skipped an event over 1 MiB: the rest of it is read without being kept; still following';

beforeAll(() => assertCliBuilt());

const lines = (text: string) => text.trim().split('\n');

/**
 * Runs `parley logs tail --json` against a stream that sends item 1, then `hostile` from the
 * moment it connects until the CLI has said it skipped the event and 4 MiB more, then ends the
 * event and sends item 2. Returns what the CLI printed after Ctrl-C.
 */
async function tailThrough(hostile: (afterSkip: () => boolean) => Iterable<Uint8Array | string>) {
  let tail: ReturnType<typeof startCli> | undefined;
  let extra = 0;
  const sent = { bytes: 0 };
  const server = await startHostileServer(async (_, response) => {
    startStream(response);
    await send(response, [sseItem(1)], sent);
    const afterSkip = () => {
      if (tail!.stderr().includes(SKIPPED)) extra += 64 * 1024;
      return extra > 4 * MiB;
    };
    await send(response, hostile(afterSkip), sent);
    await send(response, ['\n\n', sseItem(2)], sent);
  });
  tail = startCli(['logs', 'tail', '--json'], { PARLEY_BASE_URL: `${server.origin}/v1` });
  try {
    await tail.waitFor('"seq":2');
    tail.child.kill('SIGINT');
    return { ...(await tail.exited), origin: server.origin, sentBytes: sent.bytes };
  } finally {
    tail.child.kill('SIGKILL');
    await server.close();
  }
}

describe('parley logs tail against a hostile stream', () => {
  it('skips one endless line: says so once, keeps reading it, prints the item after it; exit 130 on Ctrl-C', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x78);
    const { code, stdout, stderr, origin, sentBytes } = await tailThrough((afterSkip) =>
      (function* () {
        yield 'data: ';
        yield* repeated(chunk, { stop: afterSkip });
      })(),
    );
    expect(code).toBe(130);
    expect(lines(stdout).map((line) => JSON.parse(line).seq)).toEqual([1, 2]);
    expect(stderr).toBe(`Following the activity of ${origin} (Ctrl-C to stop)\n${SKIPPED}\n`);
    expect(sentBytes).toBeGreaterThan(5 * MiB);
  });

  it('skips an event of data lines that never ends: one notice, then the next event', async () => {
    const line = Buffer.from(`data: ${'y'.repeat(1017)}\n`); // 1 KiB a line
    const { code, stdout, stderr, origin } = await tailThrough((afterSkip) =>
      repeated(Buffer.concat(Array.from({ length: 64 }, () => line)), { stop: afterSkip }),
    );
    expect(code).toBe(130);
    expect(lines(stdout).map((each) => JSON.parse(each).seq)).toEqual([1, 2]);
    expect(stderr).toBe(`Following the activity of ${origin} (Ctrl-C to stop)\n${SKIPPED}\n`);
  });
});

describe('parley webhooks doctor against a receiver whose answer never ends', () => {
  it('reads 64 KiB of each answer, says it was cut, and grades the whole battery without waiting for the timeout', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const receiver = await startHostileServer((request, response) => {
      request.resume().on('end', () => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        void send(response, repeated(chunk, {}));
      });
    });
    try {
      const url = `${receiver.origin}/webhooks`;
      const { code, stdout } = await runCli(['webhooks', 'doctor', url, '--secret', SECRET], {});
      expect(code).toBe(1);
      const report = lines(stdout).map((line) => line.split(/ {2,}/));
      const cut = `${'a'.repeat(200)}… (answer over 64 KiB: read no further)`;
      expect(report[1]).toEqual([
        '✓ a valid delivery',
        expect.stringMatching(new RegExp(`^accepted: 200 ${cut.replace(/[()…]/g, '\\$&')} in \\d+ ms$`)),
      ]);
      expect(report[3]).toEqual([
        '✗ a bad signature',
        'accepted (200): anyone can forge a delivery it accepts: verify the signature on the raw body',
      ]);
      expect(report[8]).toEqual([
        '✓ a valid delivery, timed',
        expect.stringMatching(/^answered in \d+ ms \(200\)$/),
      ]);
      expect(stdout).not.toContain('no answer within');
      expect(report.at(-1)).toEqual([
        '3 passed, 3 failed, 2 not checked (see https://github.com/parley/parley-tooling/blob/main/docs/testing-your-app.md#grade-your-receiver-parley-webhooks-doctor)',
      ]);
    } finally {
      await receiver.close();
    }
  });
});

describe('parley listen against a sender of a huge body', () => {
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

  it('answers 413 to a 32 MiB POST, says so, never forwards it, and forwards the next delivery', async () => {
    const listening = startCli(['listen', '--forward-to', appUrl, '--json'], {
      PARLEY_API_KEY: emulator.sandboxKey,
      PARLEY_BASE_URL: emulator.baseUrl,
      XDG_CONFIG_HOME: configHome,
    });
    try {
      await listening.waitFor('"ready":true');
      const ready = JSON.parse(lines(listening.stdout())[0]!);
      const control = createControlClient({ baseUrl: emulator.url });
      const { data } = await control.listEndpoints({ applicationId: ready.application_id });
      const receiverUrl = data.find((endpoint) => endpoint.id === ready.endpoint_id)!.url;

      const answer = await postHuge(receiverUrl, 32 * MiB);
      expect(answer).toMatchObject({ status: 413, body: '{"error":"payload_too_large"}' });
      await listening.waitFor('Refused a request of more than 1 MiB to the listener (413)');
      expect(received).toEqual([]);

      // Still listening: a test delivery goes through to the app.
      await control.testEndpoint(ready.endpoint_id);
      await control.advanceClock(0);
      await listening.waitFor('"status":204');
      expect(received).toHaveLength(1);
      expect(listening.stderr()).toBe(
        'Refused a request of more than 1 MiB to the listener (413): no delivery is that large\n',
      );
    } finally {
      listening.child.kill('SIGINT');
      expect((await listening.exited).code).toBe(0);
    }
  });
});
