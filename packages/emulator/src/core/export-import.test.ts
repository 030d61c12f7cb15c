import { type ReceivedRequest, startReceiver, type TestReceiver } from '@parley/test-utils';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { failingDisk } from '../_testing/failing-disk';
import { createAppWithKey, T0, testEmulator, textSend } from '../_testing/test-emulator';
import { loadDirectory } from '../store/_load-directory';
import { filePersistence } from '../store/file-persistence';
import { BUNDLE_VERSION, MAX_BUNDLE_BYTES, type StateBundle } from './bundle-types';

let receiver: TestReceiver;
let received: ReceivedRequest[];
beforeEach(async () => {
  // Every delivery fails: its retries stay pending, so an import must schedule them.
  receiver = await startReceiver((response) => {
    response.statusCode = 500;
    response.end('no');
  });
  received = receiver.requests;
});
afterEach(async () => {
  await receiver.close();
});

type Tested = ReturnType<typeof testEmulator>;
// biome-ignore lint/suspicious/noExplicitAny: a bundle broken on purpose, at any depth
type Loose = any;

/**
 * A state with something of every kind: a sandbox send still moving, a failing delivery waiting
 * for its retry, a live application with a connection, an inbound message and a daily count, a
 * workspace on a clock of its own with a message of its own, idempotency records, rate windows.
 */
async function richState(tested: Tested) {
  const { emulator, call, send } = tested;
  const control = emulator.control;
  const endpoint = await control.createEndpoint((await control.listApplications()).data[0]!.id, {
    url: receiver.url,
    events: ['message.status_updated', 'webhook.test'],
  });
  const first = await send(textSend());
  expect(first.status).toBe(202);
  await emulator.clock.advance(2_000);
  await emulator.idle();
  await send(textSend({ text: 'Deuxième' }), { idempotencyKey: 'fixed-key' });
  await call('GET', '/v1/status');
  const live = await createAppWithKey(emulator, 'live');
  const connection = await control.createConnection(live.app.id, {
    phone_number: '+33612300001',
    name: 'Shop',
  });
  await control.receiveInbound(connection.id, { from: '+33612345678', text: 'Salut' });
  await send(
    { connection_id: connection.id, to: '+33612345678', type: 'text', text: 'Réponse' },
    { key: live.key },
  );
  const workspace = await control.createWorkspace({
    name: 'own clock',
    clock: 'frozen',
    now: '2026-11-01T08:00:00Z',
  });
  const own = await createAppWithKey(emulator, 'sandbox', { workspaceId: workspace.id });
  await send(textSend(), { key: own.key });
  await control.advanceWorkspaceClock(workspace.id, 1_000);
  await emulator.idle();
  return { endpoint, first: first.body.id as string, workspace, live, own };
}

/** Every GET whose answer an import must keep, in one fixed order (they change nothing but /v1 windows). */
async function answers(tested: Tested, ids: { first: string; workspaceId: string; liveKey: string }) {
  const { emulator, call } = tested;
  const control = emulator.control;
  const controlGets = [
    '/_emulator/clock',
    `/_emulator/workspaces/${ids.workspaceId}/clock`,
    '/_emulator/workspaces',
    '/_emulator/applications?limit=100',
    '/_emulator/endpoints',
    '/_emulator/deliveries?limit=100',
    '/_emulator/messages?limit=100',
    '/_emulator/events?limit=100',
    '/_emulator/usage',
    '/_emulator/activity?limit=100',
  ];
  const out: Record<string, unknown> = {};
  for (const path of controlGets) out[path] = (await call('GET', path, { key: null })).body;
  out.health = (await control.health()).counts;
  for (const path of ['/v1/status', '/v1/connections', `/v1/messages/${ids.first}`]) {
    const answer = await call('GET', path);
    out[path] = {
      status: answer.status,
      body: answer.body,
      remaining: answer.headers.get('ratelimit-remaining'),
    };
  }
  out.live = (await call('GET', '/v1/connections', { key: ids.liveKey })).body;
  return withoutDurations(out);
}

/** Real-time durations differ between two runs; everything else must not. */
function withoutDurations(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDurations);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([name, field]) => [
        name,
        name === 'duration_ms' ? '<ms>' : withoutDurations(field),
      ]),
    );
  }
  return value;
}

/** Ids minted after the export differ between two emulators: named by first appearance instead. */
function renamedNewIds(value: unknown, known: ReadonlySet<string>): unknown {
  const names = new Map<string, string>();
  const text = JSON.stringify(value).replace(
    /evt_[0-9a-f]{32}|req_[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g,
    (id) => {
      if (known.has(id)) return id;
      if (!names.has(id)) names.set(id, `<new#${names.size + 1}>`);
      return names.get(id)!;
    },
  );
  return JSON.parse(text);
}

const idsIn = (bundle: unknown) =>
  new Set(
    JSON.stringify(bundle).match(
      /evt_[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g,
    ) ?? [],
  );

describe('export then import', () => {
  test('in process: every GET answers as before, and pending jobs fire at the same emulator times', async () => {
    const original = testEmulator({ retrySchedule: 'fast' });
    const state = await richState(original);
    const bundle = await original.emulator.control.export({ includeSecrets: true });
    expect(bundle).toMatchObject({ format: 'parley-emulator-bundle', version: 1, secrets_included: true });
    expect(bundle.pending_jobs.map(({ kind, at }) => [kind, at])).toEqual([
      ['delivery_attempt', '2026-10-14T09:30:17.050Z'],
      ['message_status', '2026-10-14T09:30:19.000Z'],
      ['message_status', '2026-10-14T09:30:19.000Z'],
      ['message_status', '2026-10-14T09:30:20.000Z'],
      ['message_status', '2026-11-01T08:00:02.000Z'],
    ]);
    // Not a key anywhere: hashes and prefixes only.
    expect(JSON.stringify(bundle)).not.toMatch(/prl_(sandbox|live)_[A-Za-z0-9]{32}/);

    const copy = testEmulator({ import: bundle, retrySchedule: 'fast' });
    const ids = { first: state.first, workspaceId: state.workspace.id, liveKey: state.live.key };
    expect(await answers(copy, ids)).toEqual(await answers(original, ids));

    // The delivery's retry and the messages' next steps fall due at the same emulator times.
    const before = received.length;
    for (const side of [original, copy]) {
      await side.emulator.clock.advance(60_000);
      await side.emulator.idle();
      await side.emulator.control.advanceWorkspaceClock(state.workspace.id, 60_000);
      await side.emulator.idle();
    }
    const known = idsIn(bundle);
    const answersAfter = async (side: Tested) =>
      renamedNewIds(
        withoutDurations({
          deliveries: (await side.emulator.control.listDeliveries({ limit: 100 })).data,
          messages: (await side.emulator.control.listMessages({ limit: 100 })).data,
          clock: await side.emulator.control.getClock(),
        }),
        known,
      );
    const [originalAfter, copyAfter] = [await answersAfter(original), await answersAfter(copy)];
    expect(copyAfter).toEqual(originalAfter);
    const retried = (
      originalAfter as { deliveries: { id: string; attempts: { at: string }[] }[] }
    ).deliveries.find((delivery) => delivery.id === bundle.deliveries[0]!.id)!;
    expect(retried.attempts.length).toBeGreaterThan(bundle.deliveries[0]!.attempts.length);
    // Both emulators sent the retries, signed with the same (exported) secret.
    const signedBy = new Set(received.slice(before).map((request) => request.headers['parley-event-id']));
    expect(signedBy.has(bundle.deliveries[0]!.event_id)).toBe(true);
  });

  test('over HTTP: GET /_emulator/export then POST /_emulator/import into a running emulator', async () => {
    const original = testEmulator();
    const state = await richState(original);
    const exported = await original.call('GET', '/_emulator/export?include_secrets=true', { key: null });
    expect(exported.status).toBe(200);
    const target = testEmulator({ now: T0 + 86_400_000 });
    await target.send(textSend());
    const imported = await target.call('POST', '/_emulator/import', { key: null, body: exported.body });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({
      ok: true,
      version: 1,
      clock: { now: exported.body.clock.now, mode: 'frozen' },
      counts: { messages: 5 },
      new_secrets: 0,
    });
    // The traffic before the import was another state's: the HAR starts empty.
    expect((await target.emulator.control.har()).log.entries).toEqual([]);
    const ids = { first: state.first, workspaceId: state.workspace.id, liveKey: state.live.key };
    const [copyAnswers, originalAnswers] = [await answers(target, ids), await answers(original, ids)];
    // The import's own control item joins the activity after the bundle's items.
    const activity = (answers: unknown) =>
      (answers as Record<string, { data: unknown[] }>)['/_emulator/activity?limit=100']!;
    expect(activity(copyAnswers).data[0]).toMatchObject({
      kind: 'control',
      path: '/_emulator/import',
      status: 200,
    });
    expect(activity(copyAnswers).data.slice(1)).toEqual(activity(originalAnswers).data);
    delete (copyAnswers as Record<string, unknown>)['/_emulator/activity?limit=100'];
    delete (originalAnswers as Record<string, unknown>)['/_emulator/activity?limit=100'];
    expect(copyAnswers).toEqual(originalAnswers);
  });

  test('without include_secrets endpoints carry no secret, and an import gives them new ones', async () => {
    const original = testEmulator();
    const { endpoint } = await richState(original);
    const bundle = await original.emulator.control.export();
    expect(bundle.endpoints).toMatchObject([{ id: endpoint.id, secret: null, previous_secret: null }]);
    expect(JSON.stringify(bundle)).not.toContain(endpoint.secret);
    const copy = testEmulator();
    const view = await copy.emulator.control.import(bundle);
    expect(view.new_secrets).toBe(1);
    expect((await copy.emulator.control.listEndpoints()).data).toEqual(
      (await original.emulator.control.listEndpoints()).data,
    );
  });

  test('one workspace alone: its records, its clock, its activity', async () => {
    const original = testEmulator();
    const state = await richState(original);
    const bundle = await original.emulator.control.export({ workspaceId: state.workspace.id });
    expect(bundle.workspace_id).toBe(state.workspace.id);
    expect(bundle.workspaces.map((workspace) => workspace.id)).toEqual([state.workspace.id]);
    expect(bundle.applications.map((app) => app.id)).toEqual([state.own.app.id]);
    expect(bundle.messages).toHaveLength(1);
    expect(bundle.clock).toEqual({ mode: 'frozen', now: '2026-11-01T08:00:01.000Z' });
    expect(bundle.activity.items.every((item) => item.application_ids.includes(state.own.app.id))).toBe(true);
    const copy = testEmulator({ import: bundle });
    expect((await copy.emulator.control.getWorkspaceClock(state.workspace.id)).now).toBe(
      '2026-11-01T08:00:01.000Z',
    );
    expect(await original.emulator.control.export({ workspaceId: 'nope' }).catch((error) => error.code)).toBe(
      'not_found',
    );
  });

  test('a data dir holds the imported state before the import is answered', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'parley-import-'));
    try {
      const original = testEmulator();
      await richState(original);
      const bundle = await original.emulator.control.export({ includeSecrets: true });
      const durable = testEmulator({ dataDir: dir });
      await durable.emulator.control.import(bundle);
      // On disk once answered, before any close or coalesced snapshot: what a restart would read.
      const onDisk = loadDirectory(dir).persisted!;
      expect(Object.keys(onDisk.state.messages)).toEqual(bundle.messages.map((record) => record.message.id));
      expect(onDisk.clock.frozenAt).toBe(Date.parse(bundle.clock.now));
      await durable.emulator.close();
      const restarted = testEmulator({ dataDir: dir });
      await restarted.emulator.ready;
      expect(restarted.emulator.restored).toBe(true);
      expect((await restarted.emulator.control.listMessages({ limit: 100 })).data).toEqual(
        (await original.emulator.control.listMessages({ limit: 100 })).data,
      );
      await restarted.emulator.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('a data dir that cannot be written: the import is a 500 and the previous state comes back', async () => {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'parley-import-disk-'));
  try {
    const original = testEmulator();
    await richState(original);
    const bundle = await original.emulator.control.export({ includeSecrets: true });
    const disk = failingDisk();
    const target = testEmulator({ dataDir: dir }, filePersistence({ dataDir: dir, disk: disk.writes }));
    await target.send(textSend({ text: 'before' }));
    await target.call('GET', '/v1/status');
    await target.emulator.idle();
    const before = await target.emulator.control.export();
    const harBefore = await target.emulator.control.har();
    disk.state.snapshotsFail = true;
    const answer = await target.call('POST', '/_emulator/import', { key: null, body: bundle });
    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe('internal_error');
    disk.state.snapshotsFail = false;
    const after = await target.emulator.control.export();
    expect({ ...after, activity: null }).toEqual({ ...before, activity: null });
    // The same items; their seq moved on past the import's own, as a feed's numbers never go back.
    const unnumbered = (items: readonly { seq: number }[]) => items.map(({ seq: _seq, ...item }) => item);
    // …and the refused call's own item after them.
    expect(after.activity.items.at(-1)).toMatchObject({
      kind: 'control',
      path: '/_emulator/import',
      status: 500,
    });
    expect(unnumbered(after.activity.items.slice(0, -1))).toEqual(unnumbered(before.activity.items));
    expect((await target.emulator.control.har()).log.entries).toHaveLength(harBefore.log.entries.length);
    await target.emulator.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('bad bundles are refused with the path in the file, and change nothing', () => {
  let source: Tested;
  let bundle: StateBundle;
  beforeEach(async () => {
    source = testEmulator();
    for (let index = 0; index < 4; index++) await source.send(textSend({ text: `n°${index}` }));
    bundle = await source.emulator.control.export();
  });
  const broken = (change: (copy: Loose) => void): unknown => {
    const copy = structuredClone(bundle) as unknown as Loose;
    change(copy);
    return copy;
  };

  const cases: [string, (copy: Loose) => void, string, string][] = [
    [
      'a wrong status',
      (copy) => (copy.messages[3].message.status = 'lost'),
      'messages[3].message.status',
      'expected one of queued, sent, delivered, read, failed, received',
    ],
    ['a missing field', (copy) => delete copy.messages[1].accepted_at, 'messages[1].accepted_at', 'missing'],
    [
      'a field of the wrong type',
      (copy) => (copy.keys[0].scopes = 'all'),
      'keys[0].scopes',
      'expected an array',
    ],
    ['an unknown top-level field', (copy) => (copy.extra = true), 'extra', 'not expected here'],
    ['a missing collection', (copy) => delete copy.deliveries, 'deliveries', 'missing'],
    [
      'a clock out of range',
      (copy) => (copy.clock.now = '10000-01-01T00:00:00Z'),
      'clock.now',
      'expected an ISO 8601 UTC time between 1970 and 9999',
    ],
    ['a duplicate id', (copy) => copy.messages.push(copy.messages[0]), 'messages[4]', 'duplicate_id'],
    [
      'a reference to nothing',
      (copy) => (copy.messages[2].application_id = '0b5f6c1e-3d2a-4f8b-9c7d-1e2f3a4b5c6d'),
      'messages[2].application_id',
      'unknown_reference',
    ],
    [
      'an activity out of order (its last part)',
      (copy) => (copy.activity.items.at(-1).seq = 0),
      `activity.items[${0}].seq`,
      'out_of_order',
    ],
  ];

  test.each(cases)('%s', async (_name, change, field, reason) => {
    const target = testEmulator();
    await target.send(textSend({ text: 'before' }));
    const before = await target.emulator.control.export();
    const bad = broken(change);
    const expectedField =
      field === 'activity.items[0].seq'
        ? `activity.items[${(bad as StateBundle).activity.items.length - 1}].seq`
        : field;
    const refused = await target.emulator.control.import(bad).catch((error) => error);
    expect(refused).toMatchObject({ code: 'validation_error', details: { field: expectedField } });
    expect(refused.details.reason).toBe(reason);
    const answered = await target.call('POST', '/_emulator/import', { key: null, body: bad });
    expect(answered.status).toBe(400);
    expect(answered.body.error).toMatchObject({
      code: 'validation_error',
      details: { field: expectedField },
    });
    // Nothing moved: the state, the clock and the history are the ones before (but for the refusals' own items).
    const after = await target.emulator.control.export();
    expect({ ...after, activity: undefined }).toEqual({ ...before, activity: undefined });
  });

  test('ids named like Object.prototype members are plain ids: stored, listed, and nothing polluted', async () => {
    // An import's ids come from a file: they index the state's null-prototype dictionaries, never a plain object.
    const appId = (await source.emulator.control.listApplications()).data[0]!.id;
    const workspaceId = bundle.workspaces[0]!.id;
    const hostile = JSON.parse(
      JSON.stringify(bundle).replaceAll(appId, '__proto__').replaceAll(workspaceId, 'constructor'),
    );
    const prototypeNames = Object.getOwnPropertyNames(Object.prototype);
    const target = testEmulator();
    const answered = await target.call('POST', '/_emulator/import', { key: null, body: hostile });
    expect(answered.status).toBe(200);
    const apps = (await target.call('GET', '/_emulator/applications', { key: null })).body.data;
    expect(apps.map((app: { id: string }) => app.id)).toContain('__proto__');
    expect(apps.find((app: { id: string }) => app.id === '__proto__').workspace_id).toBe('constructor');
    expect((await target.emulator.control.listMessages({ applicationId: '__proto__' })).data).toHaveLength(4);
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeNames);
    expect(({} as Record<string, unknown>).workspace_id).toBeUndefined();
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });

  test('another version, another format, a data dir snapshot, not an object', async () => {
    const target = testEmulator();
    const refusal = (value: unknown) => target.emulator.control.import(value).catch((error) => error);
    const newer = await refusal(broken((copy) => (copy.version = BUNDLE_VERSION + 1)));
    expect(newer).toMatchObject({
      code: 'validation_error',
      details: { field: 'version', reason: 'unsupported_version' },
    });
    expect(newer.message).toMatch(
      /^This bundle is of version 2; this emulator \(.+\) reads version 1 bundles only\./,
    );
    expect(await refusal(broken((copy) => (copy.format = 'har')))).toMatchObject({
      details: { field: 'format', reason: 'unknown_format' },
    });
    const snapshot = await refusal({ format: 'parley-emulator-state', version: 1 });
    expect(snapshot.message).toContain('--data-dir');
    expect(await refusal([bundle])).toMatchObject({ details: { field: 'bundle', reason: 'not_an_object' } });
    expect(() => testEmulator({ import: broken((copy) => (copy.version = 2)) as StateBundle })).toThrow(
      /version 2/,
    );
  });

  test(`POST /_emulator/import takes a body of ${MAX_BUNDLE_BYTES} bytes, not one more`, async () => {
    const target = testEmulator();
    const text = JSON.stringify(bundle);
    const padded = (size: number) => text + ' '.repeat(size - Buffer.byteLength(text));
    const post = (body: string) =>
      target.call('POST', '/_emulator/import', {
        key: null,
        raw: body,
        headers: { 'content-type': 'application/json' },
      });
    expect((await post(padded(MAX_BUNDLE_BYTES))).status).toBe(200);
    const over = await post(padded(MAX_BUNDLE_BYTES + 1));
    expect(over.status).toBe(413);
    expect(over.body.error).toMatchObject({
      code: 'payload_too_large',
      details: { limit_bytes: MAX_BUNDLE_BYTES },
    });
  });
});
