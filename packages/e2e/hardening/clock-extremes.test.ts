import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { type EmulatorProcess, listAll, runEmulatorProcess, startEmulatorProcess } from './_emulator-process';
import { recordFigure } from './_figures';
import { ACTIVE_CONNECTION } from './_request-arbitraries';

// Extreme clock inputs thrown at a real emulator process with a data dir: every clock route answers
// 2xx or 4xx (never 5xx), the process keeps answering, and it restarts from its data dir with the
// clocks it had. A data dir holding a clock out of range is refused at start, naming the file.
const json = { 'content-type': 'application/json' };
const LATEST = '9999-12-31T23:59:59.999Z';
const LATEST_MS = Date.parse(LATEST);
const FUZZED = 1_500;

const parent = mkdtempSync(join(tmpdir(), 'parley-hardening-clock-'));
const running: EmulatorProcess[] = [];
afterAll(async () => {
  for (const emulator of running) {
    emulator.child.kill('SIGKILL');
    await emulator.exited;
  }
  rmSync(parent, { recursive: true, force: true });
});

async function start(dataDir: string): Promise<EmulatorProcess> {
  const started = await startEmulatorProcess(['--data-dir', dataDir, '--clock', 'frozen']);
  running.push(started);
  return started;
}

/** Stops the process as Ctrl+C would (it persists first). */
async function stop(emulator: EmulatorProcess): Promise<void> {
  emulator.child.kill('SIGTERM');
  expect(await emulator.exited).toBe(143);
}

async function post(emulator: EmulatorProcess, path: string, raw: string) {
  const response = await fetch(`${emulator.control}${path}`, { method: 'POST', headers: json, body: raw });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function get(emulator: EmulatorProcess, path: string) {
  const response = await fetch(`${emulator.control}${path}`);
  return { status: response.status, body: await response.json() };
}

async function ownClock(emulator: EmulatorProcess, now: string, clock = 'frozen'): Promise<string> {
  const created = await post(emulator, '/workspaces', JSON.stringify({ name: 'edge', clock, now }));
  expect(created.status).toBe(201);
  return created.body.id;
}

/** The raw `now` values of workspace creation that must be refused, with the reason. */
const REFUSED_NOW: Array<[string, string]> = [
  ['"+275760-09-13T00:00:00.000Z"', 'invalid_format'],
  ['"-271821-04-20T00:00:00.000Z"', 'invalid_format'],
  ['"+010000-01-01T00:00:00.000Z"', 'invalid_format'],
  ['"0"', 'invalid_format'],
  ['""', 'invalid_format'],
  ['"9999-12-31T23:59:60Z"', 'invalid_format'],
  ['"2026-10-14T12:00:00Z\\u0000"', 'invalid_format'],
  [`"${'9'.repeat(100_000)}"`, 'invalid_format'],
  ['8.64e15', 'invalid_format'],
  ['1e400', 'invalid_format'],
  ['-0', 'invalid_format'],
  ['null', 'invalid_format'],
  ['[[[[[]]]]]', 'invalid_format'],
  ['"1969-12-31T23:59:59.999Z"', 'out_of_range'],
  ['"9999-12-31T23:59:59.999-00:01"', 'out_of_range'],
];

/** The raw `ms` values of an advance that must be refused. */
const REFUSED_MS = [
  '1e400',
  '-1e400',
  '-1',
  '1.5',
  '31622400001',
  '9007199254740993',
  '"1d"',
  '"86400000"',
  '"NaN"',
  '"Infinity"',
  'null',
  'true',
  '{}',
];

describe('clock extremes against a real emulator process', () => {
  test('hostile clock inputs: every one 400 with its field, the fuzzed rest never 5xx, and a restart restores the clocks', async () => {
    const dataDir = join(parent, 'running');
    const first = await start(dataDir);
    let requests = 0;
    const statuses = new Map<number, number>();
    const count = (status: number) => {
      requests++;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    };

    for (const [now, reason] of REFUSED_NOW) {
      for (const clock of ['frozen', 'real']) {
        const answer = await post(first, '/workspaces', `{"name":"w","clock":"${clock}","now":${now}}`);
        count(answer.status);
        expect([now, answer.status, answer.body.error.details]).toEqual([now, 400, { field: 'now', reason }]);
      }
    }
    const earliest = await ownClock(first, '1970-01-01T00:00:00Z');
    const latest = await ownClock(first, LATEST);
    const oneDayLeft = await ownClock(first, new Date(LATEST_MS - 86_400_000).toISOString());
    for (const ms of REFUSED_MS) {
      for (const path of ['/clock/advance', `/workspaces/${earliest}/clock/advance`]) {
        const answer = await post(first, path, `{"ms":${ms}}`);
        count(answer.status);
        expect([ms, answer.status, answer.body.error.details]).toEqual([
          ms,
          400,
          { field: 'ms', reason: 'invalid_value' },
        ]);
      }
    }
    const pastEnd = await post(first, `/workspaces/${latest}/clock/advance`, '{"ms":1}');
    expect([pastEnd.status, pastEnd.body.error.details]).toEqual([
      400,
      { field: 'ms', reason: 'out_of_range' },
    ]);
    // Eight advances of 4 h queued at once fit six times in the day left: the last two are refused.
    const queued = await Promise.all(
      Array.from({ length: 8 }, () =>
        post(first, `/workspaces/${oneDayLeft}/clock/advance`, JSON.stringify({ ms: 4 * 3_600_000 })),
      ),
    );
    for (const answer of queued) count(answer.status);
    expect(queued.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 400, 400]);

    // Fuzzed bodies on every clock route, workspaces created on the way moved and read too.
    const instants = fc.oneof(
      fc.integer({ min: 0, max: LATEST_MS }).map((ms) => new Date(ms).toISOString()),
      fc.integer({ min: -8.64e15, max: 8.64e15 }).map((ms) => new Date(ms).toISOString()),
      fc
        .integer({ min: LATEST_MS - 60_000, max: LATEST_MS + 60_000 })
        .map((ms) => new Date(ms).toISOString()),
      fc.string(),
      fc.jsonValue(),
    );
    const amounts = fc.oneof(
      fc.integer({ min: 0, max: 31_622_400_000 }),
      fc.integer({ min: -1e16, max: 1e16 }),
      fc.double(),
      fc.string(),
      fc.jsonValue(),
    );
    const bodies = fc.oneof(
      fc.record({ name: fc.constant('f'), clock: fc.constantFrom('frozen', 'real'), now: instants }),
      fc.record({ ms: amounts }),
      fc.jsonValue(),
    );
    const fuzzed = await ownClock(first, '2026-10-14T12:00:00Z');
    const routes = [
      '/workspaces',
      '/clock/advance',
      ...[fuzzed, latest, oneDayLeft].map((id) => `/workspaces/${id}/clock/advance`),
    ];
    const samples = fc.sample(fc.tuple(fc.constantFrom(...routes), bodies, amounts), {
      numRuns: FUZZED,
      seed: 21,
    });
    const fiveHundreds: string[] = [];
    for (const [path, body, followUp] of samples) {
      const answer = await post(first, path, JSON.stringify(body));
      count(answer.status);
      if (answer.status >= 500) fiveHundreds.push(`${path} ${JSON.stringify(body)}`);
      if (path !== '/workspaces' || answer.status !== 201) continue;
      const moved = await post(
        first,
        `/workspaces/${answer.body.id}/clock/advance`,
        JSON.stringify({ ms: followUp }),
      );
      const read = await get(first, `/workspaces/${answer.body.id}/clock`);
      for (const each of [moved, read]) {
        count(each.status);
        if (each.status >= 500)
          fiveHundreds.push(`after ${JSON.stringify(body)}: ${JSON.stringify(each.body)}`);
      }
    }
    expect(fiveHundreds).toEqual([]);

    // Still answering: its clocks, a send, its health.
    expect((await get(first, '/clock')).status).toBe(200);
    const sent = await fetch(`${first.base}/messages`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${first.key}`, 'idempotency-key': 'after-extremes' },
      body: JSON.stringify({
        connection_id: ACTIVE_CONNECTION,
        to: '+33612345678',
        type: 'text',
        text: 'still here',
      }),
    });
    expect(sent.status).toBe(202);
    expect((await get(first, '/health')).body.ok).toBe(true);
    const before = await Promise.all(
      [earliest, latest, oneDayLeft].map((id) => get(first, `/workspaces/${id}/clock`)),
    );
    expect(before.map((each) => each.body.now)).toEqual(['1970-01-01T00:00:00.000Z', LATEST, LATEST]);
    const workspaces = await listAll<{ id: string; clock: string }>(first.control, '/workspaces');
    await stop(first);

    // The restart finds every clock where it was.
    const second = await start(dataDir);
    const after = await Promise.all(
      [earliest, latest, oneDayLeft].map((id) => get(second, `/workspaces/${id}/clock`)),
    );
    expect(after.map((each) => each.body.now)).toEqual(before.map((each) => each.body.now));
    expect(await listAll(second.control, '/workspaces')).toEqual(workspaces);
    expect((await post(second, `/workspaces/${latest}/clock/advance`, '{"ms":0}')).status).toBe(200);
    expect((await post(second, `/workspaces/${earliest}/clock/advance`, '{"ms":86400000}')).body.now).toBe(
      '1970-01-02T00:00:00.000Z',
    );
    await stop(second);

    recordFigure({
      test: 'clock extremes',
      load: `${requests.toLocaleString('en-US')} hostile and fuzzed clock requests to a real process (${FUZZED.toLocaleString('en-US')} fuzzed), then a restart`,
      proved:
        'clock inputs outside 1970–9999 or not ISO 8601 are 400 naming the field, never 5xx; the process keeps answering and restarts with every clock where it was',
      figures: `0 × 5xx; ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${n} × ${status}`)
        .join(', ')}`,
    });
  });

  test('a data dir whose snapshot holds a clock past 9999 is refused at start: exit 2 naming the file', async () => {
    const dataDir = join(parent, 'edited');
    const emulator = await start(dataDir);
    const id = await ownClock(emulator, '2026-10-14T12:00:00Z');
    await stop(emulator);
    const file = join(dataDir, 'state.json');
    // As an older emulator wrote it (no checksum), with the workspace's clock out of range.
    const { sha256: _checksum, ...snapshot } = JSON.parse(readFileSync(file, 'utf8'));
    snapshot.state.workspaces[id].clock.frozen_at = 8.64e15;
    writeFileSync(file, JSON.stringify(snapshot));

    const refused = await runEmulatorProcess(['--port', '0', '--data-dir', dataDir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `parley-emulator: could not start: ${file} holds a clock the emulator cannot move through: the clock of workspace ${id} is at +275760-09-13T00:00:00.000Z, outside the times an emulator clock can hold (1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z). Move the file away to start from an empty state\n`,
    );
  });

  test('--clock takes real or frozen only: anything else is exit 2 before anything starts', async () => {
    for (const value of ['99999', '+275760-09-13T00:00:00.000Z', '', 'FROZEN']) {
      const refused = await runEmulatorProcess(['--port', '0', '--clock', value]);
      expect([value, refused.code]).toEqual([value, 2]);
      expect(refused.stderr).toMatch(/^parley-emulator: .*--clock/);
    }
  });
});
