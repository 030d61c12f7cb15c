import { SANDBOX_ACTIVE_CONNECTION_ID } from '@parley/emulator';
import { afterAll, describe, expect, it } from 'vitest';
import { emulatorContext } from '../../_test/emulator-context';
import { send } from '../send/index';
import { formatDuration, parseDuration } from './_duration';
import { advanceEmulatorClock } from './advance';
import { emulatorClock } from './clock';
import { resetEmulator } from './reset';
import { emulatorStatus } from './status';

describe('parley emulator clock, clock advance, reset, status', () => {
  const { emulator, context } = emulatorContext();
  afterAll(() => emulator.close());

  it('shows the clock, and moves it so a sandbox message is delivered', async () => {
    const before = await emulatorClock({}, context());
    expect(before).toEqual({ now: expect.any(String), mode: 'frozen' });
    const message = await send(
      { connection: SANDBOX_ACTIVE_CONNECTION_ID, to: '+33612345678', text: 'x' },
      context(),
    );
    const moved = await advanceEmulatorClock({ duration: '5s' }, context());
    expect(moved).toEqual({
      now: new Date(Date.parse(before.now) + 5_000).toISOString(),
      advanced_ms: 5_000,
    });
    const read = await emulator.fetch(
      new Request(`http://127.0.0.1:4010/v1/messages/${message.id}`, {
        headers: { authorization: `Bearer ${emulator.sandboxKey}` },
      }),
    );
    expect(((await read.json()) as { status: string }).status).toBe('delivered');
  });

  it('status: health, clock and counts; reset empties what was added', async () => {
    await send({ connection: SANDBOX_ACTIVE_CONNECTION_ID, to: '+33612345678', text: 'y' }, context());
    const status = await emulatorStatus({}, context());
    expect(status).toMatchObject({
      emulator: 'http://127.0.0.1:4010',
      ok: true,
      version: expect.any(String),
      clock: { mode: 'frozen' },
      counts: { workspaces: 1, applications: 1, keys: 1, messages: expect.any(Number) },
    });
    expect(status.counts?.messages).toBeGreaterThan(0);
    expect(await resetEmulator({}, context())).toEqual({ ok: true, emulator: 'http://127.0.0.1:4010' });
    expect((await emulatorStatus({}, context())).counts).toMatchObject({ messages: 0 });
  });

  it('talks to the origin of --base-url, and says when no emulator answers there (exit 3)', async () => {
    const asked: string[] = [];
    const run = context({
      fetch: (request) => {
        asked.push(request.url);
        return Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }));
      },
    });
    const failure = await emulatorClock({ baseUrl: 'http://127.0.0.1:4011/v1' }, run).catch((error) => error);
    expect(asked).toEqual(['http://127.0.0.1:4011/_emulator/clock']);
    expect(failure).toMatchObject({
      code: 3,
      message: expect.stringContaining(
        'could not reach the emulator control API at http://127.0.0.1:4011: ECONNREFUSED',
      ),
    });
  });

  it('refuses a duration it cannot read with exit 2, before any call', async () => {
    for (const duration of ['5', '5x', '1.5h', '-1s', 'soon', '400d']) {
      await expect(
        advanceEmulatorClock({ duration }, context({ fetch: () => Promise.reject(new Error('no call')) })),
      ).rejects.toMatchObject({ code: 2 });
    }
  });
});

describe('durations', () => {
  it("reads the emulator's grammar: whole numbers with units, largest first, from 1 ms to 366 d", () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('5s')).toBe(5_000);
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('2d')).toBe(172_800_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('1ms')).toBe(1);
    expect(parseDuration('366d')).toBe(31_622_400_000);
    expect(() => parseDuration('5 s')).toThrow(
      /use whole numbers with units from the largest \(d, h, m, s, ms\), e\.g\. 500ms, 90s, 10m, 1h30m, 2d/,
    );
    expect(() => parseDuration('367d')).toThrow(/at most 366d/);
    expect(() => parseDuration('366d1ms')).toThrow(/at most 366d/);
    expect(() => parseDuration('0s')).toThrow(
      expect.objectContaining({ code: 2, message: '"0s" moves nothing: give more than 0, e.g. 1s' }),
    );
  });

  it('writes one the way people read it', () => {
    expect(formatDuration(500)).toBe('500 ms');
    expect(formatDuration(5_000)).toBe('5 s');
    expect(formatDuration(90_000)).toBe('1 min 30 s');
    expect(formatDuration(172_800_000)).toBe('2 d');
  });
});
