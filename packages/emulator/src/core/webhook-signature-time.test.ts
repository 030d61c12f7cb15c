import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { isWebhookVerificationError, verifyWebhook } from '@parley/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { testEmulator } from '../_testing/test-emulator';
import type { ClockMode } from '../clock/clock-types';
import { DEFAULT_APPLICATION_ID } from './defaults';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * A user's receiver on a real 127.0.0.1 socket: `verifyWebhook` with NO options, so the default
 * 300 s tolerance against this machine's clock. `answer` is the status it then replies with.
 */
async function verifyingReceiver(answer: () => number = () => 204) {
  let secret = '';
  const outcomes: string[] = [];
  const server = createServer(async (request, response) => {
    const body = await buffer(request);
    try {
      const event = await verifyWebhook(body, request.headers, secret);
      outcomes.push(`verified ${event.type}`);
      response.writeHead(answer()).end();
    } catch (error) {
      outcomes.push(isWebhookVerificationError(error) ? error.reason : String(error));
      response.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    outcomes,
    useSecret: (value: string) => {
      secret = value;
    },
  };
}

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-signature-time-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// The emulator starts at T0 (weeks away from this machine's clock) in both modes, so a
// timestamp taken from the emulator clock would be refused by every one of these receivers.
describe('webhook timestamps are real time: a receiver verifying with defaults accepts every delivery', () => {
  it.each<[ClockMode, number]>([
    ['frozen', 0],
    ['frozen', HOUR],
    ['frozen', 3 * DAY],
    ['real', 0],
    ['real', 3 * DAY],
  ])('%s clock, advanced by %i ms', async (clock, advance) => {
    const receiver = await verifyingReceiver();
    const { emulator } = testEmulator({ clock });
    const endpoint = await emulator.control.createEndpoint(DEFAULT_APPLICATION_ID, {
      url: receiver.url,
      events: ['message.status_updated'],
    });
    receiver.useSecret(endpoint.secret);
    await emulator.control.advanceClock(advance);
    await emulator.control.testEndpoint(endpoint.id);
    await emulator.idle();
    expect(receiver.outcomes).toEqual(['verified webhook.test']);
  });

  it('retries due hours of emulator time later verify too', async () => {
    const receiver = await verifyingReceiver(() => 503);
    const { emulator } = testEmulator();
    const endpoint = await emulator.control.createEndpoint(DEFAULT_APPLICATION_ID, {
      url: receiver.url,
      events: ['message.status_updated'],
    });
    receiver.useSecret(endpoint.secret);
    await emulator.control.testEndpoint(endpoint.id);
    await emulator.idle();
    // Attempts 2 … 9: the last leaves 4 h 15 min of emulator time after the first.
    for (const delay of [60, 120, 240, 480, 960, 1920, 3840, 7680]) {
      await emulator.control.advanceClock(delay * 1000);
      await emulator.idle();
    }
    expect(receiver.outcomes).toEqual(Array(9).fill('verified webhook.test'));
  });

  it.each<ClockMode>(['frozen', 'real'])(
    '%s clock: after a restart from a data dir, the pending retry and new deliveries verify',
    async (clock) => {
      const dir = dataDir();
      let answer = 503;
      const receiver = await verifyingReceiver(() => answer);
      const first = testEmulator({ clock, dataDir: dir }).emulator;
      const endpoint = await first.control.createEndpoint(DEFAULT_APPLICATION_ID, {
        url: receiver.url,
        events: ['message.status_updated'],
      });
      receiver.useSecret(endpoint.secret);
      await first.control.advanceClock(3 * DAY);
      await first.control.testEndpoint(endpoint.id);
      await first.idle();
      await first.close();

      answer = 204;
      const second = testEmulator({ clock, dataDir: dir }).emulator;
      await second.ready;
      await second.control.advanceClock(60_000);
      await second.idle();
      await second.control.testEndpoint(endpoint.id);
      await second.idle();
      expect(receiver.outcomes).toEqual(Array(3).fill('verified webhook.test'));
      const statuses = (await second.control.listDeliveries({ endpointId: endpoint.id })).data.map(
        (d) => d.status,
      );
      expect(statuses).toEqual(['delivered', 'delivered']);
      await second.close(); // before the data dir is removed
    },
  );
});
