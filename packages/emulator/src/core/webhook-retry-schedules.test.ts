import { startReceiver, type TestReceiver } from '@parley/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { T0, testEmulator, textSend } from '../_testing/test-emulator';
import type { RetryScheduleName } from '../domain/retry-schedule';
import { DEFAULT_APPLICATION_ID } from './defaults';

// `retrySchedule` end to end: a real receiver on 127.0.0.1 that always answers 500, a frozen clock
// moved by exactly each delay, every attempt's emulator time read back from the control API.
const receivers: TestReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function failingDelivery(retrySchedule: RetryScheduleName) {
  const receiver = await startReceiver((response) => response.writeHead(500).end('down'));
  receivers.push(receiver);
  const { emulator, send } = testEmulator({ retrySchedule });
  await emulator.control.createEndpoint(DEFAULT_APPLICATION_ID, {
    url: receiver.url,
    events: ['message.status_updated'],
  });
  // A recipient ending in 0000 fails at once: its status event is the one delivery.
  expect((await send(textSend({ to: '+33612340000' }))).status).toBe(202);
  const step = async (ms: number) => {
    await emulator.clock.advance(ms);
    await emulator.idle();
  };
  const delivery = async () => {
    const [only, ...others] = (await emulator.control.listDeliveries()).data;
    expect(others).toEqual([]);
    return only!;
  };
  const offsets = async () => (await delivery()).attempts.map((attempt) => Date.parse(attempt.at) - T0);
  return { receiver, step, delivery, offsets };
}

describe('--retry-schedule (createEmulator retrySchedule)', () => {
  it('fast: 12 attempts 50 ms, 100 ms … 18 s apart, failed at 61.55 s, nothing earlier', async () => {
    const { receiver, step, delivery, offsets } = await failingDelivery('fast');
    const delays = [50, 100, 200, 400, 800, 1_600, 3_200, 6_400, 12_800, 18_000, 18_000];
    await step(0);
    for (const [index, delay] of delays.entries()) {
      expect((await delivery()).next_attempt_at).toBe(
        new Date(T0 + (await offsets()).at(-1)! + delay).toISOString(),
      );
      await step(delay - 1);
      expect(await offsets()).toHaveLength(index + 1);
      await step(1);
    }
    expect(await offsets()).toEqual([
      0, 50, 150, 350, 750, 1_550, 3_150, 6_350, 12_750, 25_550, 43_550, 61_550,
    ]);
    expect(await delivery()).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(receiver.requests).toHaveLength(12);
  });

  it('real (the default): the second attempt waits 60 s, the third 120 s more', async () => {
    const { step, delivery, offsets } = await failingDelivery('real');
    await step(0);
    expect((await delivery()).next_attempt_at).toBe(new Date(T0 + 60_000).toISOString());
    await step(59_999);
    expect(await offsets()).toEqual([0]);
    await step(1);
    await step(120_000);
    expect(await offsets()).toEqual([0, 60_000, 180_000]);
    expect((await delivery()).status).toBe('pending');
  });

  it('none: one attempt, then failed at once, and no retry ever', async () => {
    const { receiver, step, delivery, offsets } = await failingDelivery('none');
    await step(0);
    expect(await delivery()).toMatchObject({ status: 'failed', next_attempt_at: null });
    await step(24 * 3_600_000);
    expect(await offsets()).toEqual([0]);
    expect(receiver.requests).toHaveLength(1);
  });
});
