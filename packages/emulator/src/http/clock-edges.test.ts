import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { T0, type TestAnswer, testEmulator, textSend } from '../_testing/test-emulator';
import { CLOCK_LATEST_MS } from '../domain/clock-range';

// Every clock input of the control API at the edges of the clock range (1970-01-01T00:00:00Z to
// 9999-12-31T23:59:59.999Z, domain/clock-range.ts): refused with 400 naming the field, never a 5xx,
// and the clock is never moved part of the way.
const LATEST = '9999-12-31T23:59:59.999Z';
const iso = (ms: number) => new Date(ms).toISOString();
const JSON_BODY = { 'content-type': 'application/json' };

type Call = ReturnType<typeof testEmulator>['call'];

function expectRefused(answer: TestAnswer, field: string, reason: string) {
  expect(answer.status).toBe(400);
  expect(answer.body.error.code).toBe('validation_error');
  expect(answer.body.error.details).toEqual({ field, reason });
}

async function ownClock(call: Call, now: string, clock: 'frozen' | 'real' = 'frozen') {
  const created = await call('POST', '/_emulator/workspaces', { body: { name: 'edge', clock, now } });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

describe('POST /_emulator/workspaces: now', () => {
  test.each([
    ['+275760-09-13T00:00:00.000Z', 'invalid_format'],
    ['-000001-01-01T00:00:00.000Z', 'invalid_format'],
    ['0', 'invalid_format'],
    ['2026', 'invalid_format'],
    ['2026-10-14', 'invalid_format'],
    ['2026-02-30T00:00:00Z', 'invalid_format'],
    ['1969-12-31T23:59:59.999Z', 'out_of_range'],
    ['9999-12-31T23:59:59.999-00:01', 'out_of_range'],
  ])('%j: 400 %s on now, with either clock, and no workspace made', async (now, reason) => {
    const { call } = testEmulator();
    for (const clock of ['frozen', 'real']) {
      expectRefused(
        await call('POST', '/_emulator/workspaces', { body: { name: 'w', clock, now } }),
        'now',
        reason,
      );
    }
    expect((await call('GET', '/_emulator/workspaces')).body.data).toHaveLength(1);
  });

  test('non-string now is 400 invalid_format', async () => {
    const { call } = testEmulator();
    for (const now of [0, 8.64e15, null, true, [], {}]) {
      const answer = await call('POST', '/_emulator/workspaces', {
        body: { name: 'w', clock: 'frozen', now },
      });
      expectRefused(answer, 'now', 'invalid_format');
    }
  });

  test('both ends of the range are accepted, and the clock shows them', async () => {
    const { call } = testEmulator();
    const first = await ownClock(call, '1970-01-01T00:00:00Z');
    const last = await ownClock(call, LATEST);
    expect((await call('GET', `/_emulator/workspaces/${first}/clock`)).body.now).toBe(
      '1970-01-01T00:00:00.000Z',
    );
    expect((await call('GET', `/_emulator/workspaces/${last}/clock`)).body.now).toBe(LATEST);
  });
});

describe('clock advances at the end of the range', () => {
  test('a workspace at the latest time: 0 ms is fine, 1 ms more is 400 out_of_range and the clock stays', async () => {
    const { call } = testEmulator();
    const id = await ownClock(call, LATEST);
    const advance = (ms: unknown) =>
      call('POST', `/_emulator/workspaces/${id}/clock/advance`, { body: { ms } });
    expect((await advance(0)).body).toEqual({ workspace_id: id, now: LATEST });
    const refused = await advance(1);
    expectRefused(refused, 'ms', 'out_of_range');
    expect(refused.body.error.message).toBe(
      `An advance of 1 ms would take the clock past ${LATEST}, the latest time it can show; it stays at ${LATEST}.`,
    );
    expect((await call('GET', `/_emulator/workspaces/${id}/clock`)).body.now).toBe(LATEST);
  });

  test('up to the latest time exactly, and not one millisecond past it', async () => {
    const { call } = testEmulator();
    const id = await ownClock(call, iso(CLOCK_LATEST_MS - 86_400_000));
    const advance = (ms: unknown) =>
      call('POST', `/_emulator/workspaces/${id}/clock/advance`, { body: { ms } });
    expectRefused(await advance(86_400_001), 'ms', 'out_of_range');
    expect((await advance(86_400_000)).body.now).toBe(LATEST);
  });

  test('two advances that each fit but not together: the second, queued behind the first, is 400, not 500', async () => {
    const { call } = testEmulator();
    const id = await ownClock(call, iso(CLOCK_LATEST_MS - 1_000));
    const advance = () => call('POST', `/_emulator/workspaces/${id}/clock/advance`, { body: { ms: 600 } });
    const [first, second] = await Promise.all([advance(), advance()]);
    expect(first.body).toEqual({ workspace_id: id, now: iso(CLOCK_LATEST_MS - 400) });
    expectRefused(second, 'ms', 'out_of_range');
    expect((await call('GET', `/_emulator/workspaces/${id}/clock`)).body.now).toBe(
      iso(CLOCK_LATEST_MS - 400),
    );
  });

  test('the global clock near the end: refused past it, in process too (RangeError), moved exactly to it', async () => {
    const { emulator, call } = testEmulator({ now: CLOCK_LATEST_MS - 1_000 });
    expectRefused(
      await call('POST', '/_emulator/clock/advance', { body: { ms: 1_001 } }),
      'ms',
      'out_of_range',
    );
    await expect(emulator.clock.advance(1_001)).rejects.toThrow(RangeError);
    expect(emulator.clock.now()).toBe(CLOCK_LATEST_MS - 1_000);
    expect((await call('POST', '/_emulator/clock/advance', { body: { ms: 1_000 } })).body).toEqual({
      now: LATEST,
    });
  });

  test('a real clock started near the end stops at the latest time as the wall clock moves on', async () => {
    const { call } = testEmulator();
    const id = await ownClock(call, iso(CLOCK_LATEST_MS - 1_000), 'real');
    const realNow = Date.now;
    const wall = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 3_600_000);
    try {
      expect((await call('GET', `/_emulator/workspaces/${id}/clock`)).body.now).toBe(LATEST);
      const refused = await call('POST', `/_emulator/workspaces/${id}/clock/advance`, { body: { ms: 1 } });
      expectRefused(refused, 'ms', 'out_of_range');
    } finally {
      wall.mockRestore();
    }
  });

  test('a message sent at the latest time is stamped with it, and its status steps wait for an advance that cannot come', async () => {
    const { call, send } = testEmulator({ now: CLOCK_LATEST_MS });
    const sent = await send(textSend());
    expect(sent.status).toBe(202);
    expect(sent.body.created_at).toBe('9999-12-31T23:59:59Z');
    expect((await call('POST', '/_emulator/clock/advance', { body: { ms: 0 } })).status).toBe(200);
    expect((await call('GET', `/v1/messages/${sent.body.id}`)).body.status).toBe('queued');
  });
});

describe('POST /_emulator/clock/advance: ms', () => {
  test.each([
    ['a duration string', '"1d"'],
    ['a number in a string', '"5000"'],
    ['NaN as a string', '"NaN"'],
    ['a fraction', '1.5'],
    ['negative', '-1'],
    ['past 366 days', '31622400001'],
    ['a number JSON cannot hold (1e400)', '1e400'],
    ['null', 'null'],
    ['an array', '[1000]'],
    ['an object', '{}'],
    ['true', 'true'],
  ])('%s: 400 invalid_value on ms, on the global and a workspace clock', async (_, ms) => {
    const { call } = testEmulator();
    const id = await ownClock(call, '2026-10-14T12:00:00Z');
    for (const path of ['/_emulator/clock/advance', `/_emulator/workspaces/${id}/clock/advance`]) {
      expectRefused(
        await call('POST', path, { raw: `{"ms":${ms}}`, headers: JSON_BODY }),
        'ms',
        'invalid_value',
      );
    }
    expect((await call('GET', '/_emulator/clock')).body.now).toBe(iso(T0));
  });

  test('-0 is 0; 366 days is the longest advance', async () => {
    const { call } = testEmulator();
    expect(
      (await call('POST', '/_emulator/clock/advance', { raw: '{"ms":-0}', headers: JSON_BODY })).body,
    ).toEqual({
      now: iso(T0),
    });
    const year = await call('POST', '/_emulator/clock/advance', { body: { ms: 31_622_400_000 } });
    expect(year.body).toEqual({ now: iso(T0 + 31_622_400_000) });
  });
});

describe('no body sent to a clock route answers 5xx (property)', () => {
  // Instants of every year a Date can hold, the last hour of the last, the edges, and text.
  const isoOf = (ms: number) => new Date(ms).toISOString();
  const instants = fc.oneof(
    { weight: 2, arbitrary: fc.integer({ min: -8.64e15, max: 8.64e15 }).map(isoOf) },
    { weight: 2, arbitrary: fc.integer({ min: 8.64e15 - 3_600_000, max: 8.64e15 }).map(isoOf) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        LATEST,
        '1970-01-01T00:00:00Z',
        '+275760-09-13T00:00:00.000Z',
        '-271821-04-20T00:00:00.000Z',
        '0',
        '',
        '9999-12-31T23:59:60Z',
      ),
    },
    { weight: 1, arbitrary: fc.string() },
  );
  const advanceAmounts = fc.oneof(
    fc.integer({ min: -1e16, max: 1e16 }),
    fc.integer({ min: 0, max: 31_622_400_000 }),
    fc.double(),
    fc.constantFrom(0, 1, 31_622_400_000, 31_622_400_001, Number.MAX_SAFE_INTEGER),
    fc.string(),
    fc.jsonValue(),
  );
  const workspaceBodies = fc
    .oneof(
      // Well formed but for `now`, most of the time, so the clock itself is what is tried.
      {
        weight: 3,
        arbitrary: fc.record({
          name: fc.constant('w'),
          clock: fc.constantFrom('frozen', 'real'),
          now: instants,
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record(
          {
            name: fc.oneof(fc.string(), fc.jsonValue()),
            clock: fc.constantFrom('frozen', 'real', 'x', 1),
            now: fc.oneof(instants, fc.jsonValue()),
          },
          { requiredKeys: [] },
        ),
      },
    )
    .map((body) => JSON.stringify(body));
  const bodies = fc.oneof(
    fc.record({ ms: advanceAmounts }, { requiredKeys: [] }).map((body) => JSON.stringify(body)),
    workspaceBodies,
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc.constantFrom('{"ms":1e400}', '{"ms":-1e400}', '{"now":"\\u0000"}', '{', '', 'null'),
    fc.string(),
  );
  const answered = (answer: TestAnswer) => {
    expect(answer.status).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(500);
    if (answer.status >= 400) expect(typeof answer.body.error.code).toBe('string');
  };

  test('global and workspace advances, workspace creation (then its clock moved and read), clock reads: 2xx or 4xx, and the emulator goes on', async () => {
    const { call, send } = testEmulator();
    const nearEnd = await ownClock(call, iso(CLOCK_LATEST_MS - 5_000));
    const realNearEnd = await ownClock(call, iso(CLOCK_LATEST_MS - 60_000), 'real');
    const ordinary = await ownClock(call, '2026-10-14T12:00:00Z');
    const routes = [
      '/_emulator/clock/advance',
      '/_emulator/workspaces',
      ...[nearEnd, realNearEnd, ordinary].map((id) => `/_emulator/workspaces/${id}/clock/advance`),
    ];
    const bodyFor = (path: string) =>
      path === '/_emulator/workspaces' ? fc.oneof(workspaceBodies, bodies) : bodies;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes).chain((path) => fc.tuple(fc.constant(path), bodyFor(path))),
        advanceAmounts,
        async ([path, raw], followUp) => {
          const answer = await call('POST', path, { raw, headers: JSON_BODY });
          answered(answer);
          if (path !== '/_emulator/workspaces' || answer.status !== 201 || answer.body.clock === 'global')
            return;
          // A clock that was accepted can be moved and read: the next advance is where a bad start showed.
          const own = `/_emulator/workspaces/${answer.body.id}/clock`;
          for (const ms of [1_000, followUp])
            answered(await call('POST', `${own}/advance`, { body: { ms } }));
          answered(await call('GET', own));
        },
      ),
      { numRuns: 600 },
    );
    for (const path of [
      '/_emulator/clock',
      ...[nearEnd, realNearEnd, ordinary].map((id) => `/_emulator/workspaces/${id}/clock`),
    ]) {
      const read = await call('GET', path);
      expect(read.status).toBe(200);
      expect(Date.parse(read.body.now)).toBeLessThanOrEqual(CLOCK_LATEST_MS);
    }
    expect((await send(textSend())).status).toBe(202);
    expect((await call('GET', '/_emulator/health')).status).toBe(200);
  });
});
