import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReceiver, type TestReceiver } from '@parley/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { T0, type TestAnswer, testEmulator, textSend } from '../_testing/test-emulator';
import { DEFAULT_APPLICATION_ID, DEFAULT_WORKSPACE_ID } from '../core/defaults';
import type { Emulator } from '../create-emulator';

// Per-workspace clocks and resets (DESIGN §4), end to end in process: /v1 calls with each
// workspace's key, the control API, and real receivers on 127.0.0.1 for the deliveries.
const receivers: TestReceiver[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const A_START = Date.parse('2026-10-14T12:00:45Z');
const B_START = Date.parse('2026-03-01T23:59:50Z');
const iso = (ms: number) => new Date(ms).toISOString();
const seconds = (ms: number) => iso(ms).replace('.000Z', 'Z');

type Call = ReturnType<typeof testEmulator>['call'];

/** A workspace with its own frozen clock, a sandbox application, its key and (optionally) an endpoint. */
async function workspace(
  emulator: Emulator,
  call: Call,
  start: number,
  respond: (response: import('node:http').ServerResponse) => void = (response) => response.end('ok'),
) {
  const created = await call('POST', '/_emulator/workspaces', {
    body: { name: `w-${start}`, clock: 'frozen', now: iso(start) },
  });
  expect(created.status).toBe(201);
  const id: string = created.body.id;
  const app = await emulator.control.createApplication({
    name: 'App',
    environment: 'sandbox',
    workspace_id: id,
  });
  const { key } = await emulator.control.createKey(app.id, {});
  const receiver = await startReceiver(respond);
  receivers.push(receiver);
  await emulator.control.createEndpoint(app.id, { url: receiver.url, events: ['message.status_updated'] });
  let sequence = 0;
  const send = (body = textSend()) =>
    call('POST', '/v1/messages', { key, body, idempotencyKey: `${id}-${++sequence}` });
  const advance = async (ms: number) => {
    const answer = await call('POST', `/_emulator/workspaces/${id}/clock/advance`, { body: { ms } });
    await emulator.idle();
    return answer;
  };
  const statusOf = async (message: TestAnswer) =>
    (await call('GET', `/v1/messages/${message.body.id}`, { key })).body.status;
  const received = () =>
    receiver.requests.map((request) => JSON.parse(request.body.toString()).data.message.status as string);
  return { id, app, key, receiver, send, advance, statusOf, received };
}

describe('POST /_emulator/workspaces with a clock of its own', () => {
  test('201 with clock, created_at in its own time; GET …/clock says own_clock; global ones say global', async () => {
    const { call } = testEmulator();
    const created = await call('POST', '/_emulator/workspaces', {
      body: { name: 'Worker 1', clock: 'frozen', now: '2026-10-14T12:00:45Z' },
    });
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'Worker 1',
      created_at: '2026-10-14T12:00:45Z',
      clock: 'frozen',
    });
    expect((await call('GET', `/_emulator/workspaces/${created.body.id}/clock`)).body).toEqual({
      workspace_id: created.body.id,
      now: '2026-10-14T12:00:45.000Z',
      mode: 'frozen',
      own_clock: true,
    });
    expect((await call('GET', `/_emulator/workspaces/${DEFAULT_WORKSPACE_ID}/clock`)).body).toEqual({
      workspace_id: DEFAULT_WORKSPACE_ID,
      now: iso(T0),
      mode: 'frozen',
      own_clock: false,
    });
    const real = await call('POST', '/_emulator/workspaces', { body: { name: 'Real', clock: 'real' } });
    expect(real.body.clock).toBe('real');
    const listed = (await call('GET', '/_emulator/workspaces')).body.data;
    expect(listed.map((entry: { clock: string }) => entry.clock)).toEqual(['global', 'frozen', 'real']);
  });

  test.each([
    [{ name: 'x', clock: 'slow' }, 'clock', 'invalid_value'],
    [{ name: 'x', now: '2026-10-14T12:00:00Z' }, 'now', 'not_allowed'],
    [{ name: 'x', clock: 'frozen', now: 'yesterday' }, 'now', 'invalid_format'],
  ])('%j → 400 on %s', async (body, field, reason) => {
    const { call } = testEmulator();
    const answer = await call('POST', '/_emulator/workspaces', { body });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual({ field, reason });
  });

  test('advance: 409 workspace_clock_shared on the global clock, 404 unknown, 400 bad ms', async () => {
    const { call } = testEmulator();
    const shared = await call('POST', `/_emulator/workspaces/${DEFAULT_WORKSPACE_ID}/clock/advance`, {
      body: { ms: 1_000 },
    });
    expect(shared.status).toBe(409);
    expect(shared.body.error.code).toBe('workspace_clock_shared');
    const unknown = await call(
      'POST',
      '/_emulator/workspaces/a7e1c0de-0000-4000-8000-0000000000ff/clock/advance',
      {
        body: { ms: 1 },
      },
    );
    expect(unknown.status).toBe(404);
    expect((await call('GET', '/_emulator/workspaces/nope/clock')).status).toBe(404);
    const { body } = await call('POST', '/_emulator/workspaces', { body: { name: 'w', clock: 'frozen' } });
    const bad = await call('POST', `/_emulator/workspaces/${body.id}/clock/advance`, { body: { ms: -1 } });
    expect(bad.body.error.details).toEqual({ field: 'ms', reason: 'invalid_value' });
  });
});

describe('isolation: each workspace lives in its own time', () => {
  test("advancing one workspace moves its messages and deliveries only; the global advance moves neither's", async () => {
    const { emulator, call, send: sendSeed } = testEmulator();
    const a = await workspace(emulator, call, A_START);
    const b = await workspace(emulator, call, B_START);
    const inA = await a.send();
    const inB = await b.send();
    const inSeed = await sendSeed(textSend());
    expect(inA.body.created_at).toBe(seconds(A_START));
    expect(inB.body.created_at).toBe(seconds(B_START));
    expect(inSeed.body.created_at).toBe(seconds(T0));

    expect((await a.advance(5_000)).body).toEqual({ workspace_id: a.id, now: iso(A_START + 5_000) });
    expect(await a.statusOf(inA)).toBe('delivered');
    expect(a.received()).toEqual(['sent', 'delivered']);
    expect(await b.statusOf(inB)).toBe('queued');
    expect(b.received()).toEqual([]);
    expect((await call('GET', `/v1/messages/${inSeed.body.id}`)).body.status).toBe('queued');
    expect(emulator.clock.now()).toBe(T0);

    await call('POST', '/_emulator/clock/advance', { body: { ms: 60_000 } });
    await emulator.idle();
    expect((await call('GET', `/v1/messages/${inSeed.body.id}`)).body.status).toBe('delivered');
    expect(await b.statusOf(inB)).toBe('queued');
    expect(emulator.workspaceClock(a.id).now()).toBe(A_START + 5_000);
    expect(emulator.workspaceClock(b.id).now()).toBe(B_START);

    // Its events carry its time, and so do the activity items about it.
    const events = (await emulator.control.listEvents({ applicationId: a.app.id })).data;
    expect(events.map((event) => event.created_at)).toEqual([
      seconds(A_START + 5_000),
      seconds(A_START + 2_000),
    ]);
    const clockItems = (await call('GET', '/_emulator/activity?type=clock')).body.data;
    expect(clockItems.find((item: { workspace_id?: string }) => item.workspace_id === a.id)).toMatchObject({
      now: iso(A_START + 5_000),
      at: iso(A_START + 5_000),
      application_ids: [a.app.id],
    });
  });

  test('GET /v1/status, rate-limit windows and the UTC day follow the key’s workspace clock', async () => {
    const { emulator, call } = testEmulator();
    const a = await workspace(emulator, call, A_START);
    const b = await workspace(emulator, call, B_START);
    const statusA = await call('GET', '/v1/status', { key: a.key });
    expect(statusA.body.timestamp).toBe(seconds(A_START));
    expect(statusA.headers.get('ratelimit-reset')).toBe('15');
    expect((await call('GET', '/v1/status', { key: b.key })).headers.get('ratelimit-reset')).toBe('10');
    // 30 sends fill A's window at 12:00:45; B, in another minute of another day, is untouched.
    for (let index = 0; index < 30; index++) expect((await a.send()).status).toBe(202);
    const refused = await a.send();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('15');
    expect((await b.send()).status).toBe(202);
    await a.advance(15_000);
    expect((await a.send()).status).toBe(202);
    // B crosses midnight UTC after 10 s of its own time: its day in usage follows.
    const dayOf = async (workspaceId: string) =>
      (await call('GET', '/_emulator/usage')).body.workspaces.find(
        (entry: { workspace_id: string }) => entry.workspace_id === workspaceId,
      ).day;
    expect(await dayOf(b.id)).toBe('2026-03-01');
    await b.advance(10_000);
    expect(await dayOf(b.id)).toBe('2026-03-02');
    expect(await dayOf(a.id)).toBe('2026-10-14');
    expect(await dayOf(DEFAULT_WORKSPACE_ID)).toBe('2026-10-14');
  });

  test("a failing receiver's retries follow its workspace clock, never the global one", async () => {
    const { emulator, call } = testEmulator();
    const a = await workspace(emulator, call, A_START, (response) => response.writeHead(503).end());
    await a.send(textSend({ to: '+33612340000' }));
    await a.advance(0);
    const deliveries = async () => (await emulator.control.listDeliveries({ applicationId: a.app.id })).data;
    expect((await deliveries())[0]).toMatchObject({
      status: 'pending',
      next_attempt_at: iso(A_START + 60_000),
    });
    await emulator.clock.advance(86_400_000);
    await emulator.idle();
    expect((await deliveries())[0]!.attempts).toHaveLength(1);
    await a.advance(60_000);
    expect((await deliveries())[0]!.attempts.map((attempt) => attempt.at)).toEqual([
      iso(A_START),
      iso(A_START + 60_000),
    ]);
    expect(a.receiver.requests).toHaveLength(2);
  });
});

describe('POST /_emulator/workspaces/{id}/reset', () => {
  test("clears that workspace's messages, deliveries, events, usage and faults; keeps its set-up, its time and the others", async () => {
    const { emulator, call } = testEmulator();
    const a = await workspace(emulator, call, A_START);
    const b = await workspace(emulator, call, B_START);
    const first = await a.send();
    const inB = await b.send();
    await a.advance(5_000);
    await b.advance(2_000);
    await call('POST', '/_emulator/faults', {
      body: { key_id: await keyIdOf(emulator, a.app.id), fault: { drop: true } },
    });
    const reset = await call('POST', `/_emulator/workspaces/${a.id}/reset`);
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ ok: true, workspace_id: a.id });

    expect((await call('GET', `/_emulator/messages?application_id=${a.app.id}`)).body.data).toEqual([]);
    expect((await call('GET', `/v1/messages/${first.body.id}`, { key: a.key })).status).toBe(404);
    expect((await emulator.control.listDeliveries({ applicationId: a.app.id })).data).toEqual([]);
    expect((await emulator.control.listEvents({ applicationId: a.app.id })).data).toEqual([]);
    expect((await emulator.control.listFaults()).data).toEqual([]);
    const usage = (await call('GET', `/_emulator/usage?application_id=${a.app.id}`)).body;
    expect(usage.keys[0].buckets.sends.used).toBe(0);
    // Set-up and time stay: the same key, endpoint and Idempotency-Key make a new message.
    expect(emulator.workspaceClock(a.id).now()).toBe(A_START + 5_000);
    expect((await emulator.control.listEndpoints({ applicationId: a.app.id })).data).toHaveLength(1);
    const again = await call('POST', '/v1/messages', {
      key: a.key,
      body: textSend(),
      idempotencyKey: `${a.id}-1`,
    });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.id).not.toBe(first.body.id);
    await a.advance(5_000);
    expect(await a.statusOf(again)).toBe('delivered');

    // The other workspace, and the seed one, are untouched.
    expect(await b.statusOf(inB)).toBe('sent');
    expect((await emulator.control.listDeliveries({ applicationId: b.app.id })).data).toHaveLength(1);
    expect((await emulator.control.listEvents({ applicationId: b.app.id })).data).toHaveLength(1);
    expect((await emulator.control.listApplications()).data.map((app) => app.id)).toContain(
      DEFAULT_APPLICATION_ID,
    );
  });

  test('in process: control.resetWorkspace and workspaceClock; a reset stops its pending jobs', async () => {
    const { emulator, call } = testEmulator();
    const { id } = await emulator.control.createWorkspace({ name: 'W', clock: 'frozen', now: iso(A_START) });
    const app = await emulator.control.createApplication({
      name: 'App',
      environment: 'sandbox',
      workspace_id: id,
    });
    const { key } = await emulator.control.createKey(app.id, {});
    const clock = emulator.workspaceClock(id);
    expect(clock.mode).toBe('frozen');
    const sent = await call('POST', '/v1/messages', { key, body: textSend(), idempotencyKey: 'w-1' });
    await emulator.control.resetWorkspace(id);
    await clock.advance(10_000);
    expect(clock.now()).toBe(A_START + 10_000);
    expect((await emulator.control.listEvents({ applicationId: app.id })).data).toEqual([]);
    expect((await call('GET', `/v1/messages/${sent.body.id}`, { key })).status).toBe(404);
    await expect(emulator.workspaceClock(DEFAULT_WORKSPACE_ID).advance(1)).rejects.toMatchObject({
      code: 'workspace_clock_shared',
    });
  });
});

describe('--data-dir', () => {
  test("a workspace's own clock and its pending status steps survive a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-workspace-clock-'));
    dirs.push(dir);
    const first = testEmulator({ dataDir: dir });
    const { id } = await first.emulator.control.createWorkspace({
      name: 'W',
      clock: 'frozen',
      now: iso(A_START),
    });
    const app = await first.emulator.control.createApplication({
      name: 'App',
      environment: 'sandbox',
      workspace_id: id,
    });
    const { key } = await first.emulator.control.createKey(app.id, {});
    const sent = await first.call('POST', '/v1/messages', { key, body: textSend(), idempotencyKey: 'w-1' });
    await first.emulator.workspaceClock(id).advance(3_000);
    await first.emulator.close();

    const second = testEmulator({ dataDir: dir });
    await second.emulator.ready;
    expect(second.emulator.workspaceClock(id).now()).toBe(A_START + 3_000);
    expect(second.emulator.clock.now()).toBe(T0);
    await second.emulator.workspaceClock(id).advance(2_000);
    expect((await second.call('GET', `/v1/messages/${sent.body.id}`, { key })).body.status).toBe('delivered');
    expect(
      (await second.emulator.control.listEvents({ applicationId: app.id })).data.map(
        (event) => event.created_at,
      ),
    ).toEqual([seconds(A_START + 5_000), seconds(A_START + 2_000)]);
    await second.emulator.close();
  });
});

async function keyIdOf(emulator: Emulator, applicationId: string): Promise<string> {
  const usage = await emulator.control.usage(applicationId);
  return usage.keys[0]!.key_id;
}
