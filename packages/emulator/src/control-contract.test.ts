import type { ListEnvelope } from '@parley/sdk';
import { startReceiver, type TestReceiver } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ActivityItem, createControlClient, type EmulatorControl } from './control';
import { createEmulator, type Emulator } from './create-emulator';
import { SANDBOX_ACTIVE_CONNECTION_ID } from './domain/sandbox-fixtures';
import { type EmulatorServer, startEmulatorServer } from './server/start-server';

/**
 * One contract, two transports: every method of `EmulatorControl`, in process
 * (`emulator.control`) and over HTTP (`createControlClient` against a real socket), from the same
 * starting state (frozen clocks at the same instant), must give the same answer, refusals
 * included. Only what is generated at random differs: ids, keys and secrets are compared by the
 * order in which each side first showed them, and attempt durations are not compared.
 */

/** Every method of the contract; the type below fails to compile when one is missing. */
const CONTROL_METHODS = [
  'health',
  'reset',
  'getClock',
  'advanceClock',
  'idle',
  'createWorkspace',
  'listWorkspaces',
  'getWorkspaceClock',
  'advanceWorkspaceClock',
  'resetWorkspace',
  'createApplication',
  'listApplications',
  'createKey',
  'revokeKey',
  'createEndpoint',
  'listEndpoints',
  'updateEndpoint',
  'deleteEndpoint',
  'rotateSecret',
  'testEndpoint',
  'setChaos',
  'getChaos',
  'clearChaos',
  'listDeliveries',
  'replayDelivery',
  'usage',
  'createConnection',
  'disconnectConnection',
  'receiveInbound',
  'listMessages',
  'listApplicationConnections',
  'sendMessage',
  'listConversations',
  'getConversation',
  'messageAsCustomer',
  'listEvents',
  'listActivity',
  'createFault',
  'listFaults',
  'deleteFault',
  'clearFaults',
  'listMagicNumbers',
  'export',
  'import',
  'har',
] as const satisfies readonly (keyof EmulatorControl)[];
type Unlisted = Exclude<keyof EmulatorControl, (typeof CONTROL_METHODS)[number]>;
const everyMethodListed: [Unlisted] extends [never] ? true : Unlisted = true;

const T0 = Date.parse('2026-10-14T09:30:15Z');
/** A well-formed id that names nothing. */
const UNKNOWN_ID = '0b5f6c1e-3d2a-4f8b-9c7d-1e2f3a4b5c6d';

type Side = 0 | 1;
/** This side's value of a pair the two sides answered. */
type Pick = <Value>(pair: readonly [Value, Value]) => Value;

let local: Emulator;
let server: EmulatorServer;
let receiver: TestReceiver;
let sides: [EmulatorControl, EmulatorControl];
const called = new Set<string>();

/** Records which methods a step calls, so the test can show it called them all. */
function recording(control: EmulatorControl): EmulatorControl {
  return new Proxy(control, {
    get(target, name, receiver) {
      if (typeof name === 'string') called.add(name);
      return Reflect.get(target, name, receiver);
    },
  });
}

/** Same answer shape on both sides, with generated values named by their first appearance per side. */
function normaliser() {
  const names = new Map<string, string>();
  const name = (value: string, kind: string) => {
    if (!names.has(value)) names.set(value, `<${kind}#${names.size + 1}>`);
    return names.get(value)!;
  };
  const generated =
    /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|evt_[0-9a-f]{32}|req_[0-9a-f]{32}|prl_(?:sandbox|live)_[A-Za-z0-9]+|whsec_[A-Za-z0-9]{32}/g;
  const walk = (value: unknown, key?: string): unknown => {
    if (typeof value === 'string') return value.replace(generated, (match) => name(match, 'generated'));
    if (key === 'duration_ms' && typeof value === 'number') return '<duration>';
    if (Array.isArray(value)) return value.map((item) => walk(item));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([field, item]) => [field, walk(item, field)]));
    }
    return value;
  };
  return walk;
}
const normalised: [ReturnType<typeof normaliser>, ReturnType<typeof normaliser>] = [
  normaliser(),
  normaliser(),
];

/** What a call gave: its answer, or the spec error it was refused with. */
async function outcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { answer: await run() };
  } catch (error) {
    const { status, code, message, details } = error as {
      status: number;
      code: string;
      message: string;
      details?: Record<string, unknown>;
    };
    return { refused: { status, code, message, details: details ?? {} } };
  }
}

type Outcome =
  | { answer: unknown }
  | { refused: { status: number; code: string; message: string; details: Record<string, unknown> } };

/** Runs `call` in process, then over HTTP, and expects the same outcome; returns both outcomes. */
async function compare(call: (control: EmulatorControl, pick: Pick) => Promise<unknown>) {
  const outcomes: Outcome[] = [];
  for (const side of [0, 1] as const satisfies Side[]) {
    const pick: Pick = (pair) => pair[side];
    outcomes.push(await outcome(() => call(sides[side], pick)));
  }
  expect(normalised[1](outcomes[1])).toEqual(normalised[0](outcomes[0]));
  return outcomes as [Outcome, Outcome];
}

/** {@link compare} for a call both sides answer: each side's answer, so a later step can use its own ids (`pick`). */
async function both<Answer>(call: (control: EmulatorControl, pick: Pick) => Promise<Answer>) {
  const outcomes = await compare(call);
  return outcomes.map((each) => {
    if (!('answer' in each)) throw new Error(`refused: ${JSON.stringify(each.refused)}`);
    return each.answer;
  }) as [Answer, Answer];
}

/** {@link both}, but `field` of the answers is not compared (each side keeps its own). */
async function compareWithout<Answer extends object>(
  field: keyof Answer,
  call: (control: EmulatorControl, pick: Pick) => Promise<Answer>,
): Promise<[Answer, Answer]> {
  const answers: Answer[] = [];
  await both(async (control, pick) => {
    const answer = await call(control, pick);
    answers.push(answer);
    return { ...answer, [field]: null };
  });
  return answers as [Answer, Answer];
}

/**
 * An activity page without what differs by design: over HTTP each control change is an item of its
 * own, so the seqs (and the cursors made of them) differ; the items and their order may not.
 */
function withoutSeqs({ data, next_cursor, ...page }: ListEnvelope<ActivityItem>) {
  return {
    ...page,
    next_cursor: next_cursor === null ? null : '<cursor>',
    data: data.map(({ seq: _seq, ...item }) => item),
  };
}

/** {@link compare} for a call both sides must refuse: the in-process refusal. */
async function refusedByBoth(call: (control: EmulatorControl, pick: Pick) => Promise<unknown>) {
  const [first] = await compare(call);
  if (!('refused' in first)) throw new Error(`answered: ${JSON.stringify(first.answer)}`);
  return first.refused;
}

beforeAll(async () => {
  receiver = await startReceiver();
  local = createEmulator({ clock: 'frozen', now: T0 });
  server = await startEmulatorServer({ port: 0, clock: 'frozen', now: T0 });
  sides = [recording(local.control), recording(createControlClient({ baseUrl: server.baseUrl }))];
});

afterAll(async () => {
  await local.close();
  await server.close();
  await receiver.close();
});

describe('emulator.control and createControlClient() answer the same', () => {
  test('both have exactly the methods of EmulatorControl', () => {
    expect(everyMethodListed).toBe(true);
    const listed = [...CONTROL_METHODS].sort();
    expect(Object.keys(local.control).sort()).toEqual(listed);
    expect(Object.keys(createControlClient()).sort()).toEqual(listed);
  });

  test('the emulator, its clock and its idle wait', async () => {
    const [health] = await both((control) => control.health());
    expect(health).toMatchObject({ ok: true, counts: { workspaces: 1, applications: 1 } });
    expect((await both((control) => control.getClock()))[0]).toEqual({
      now: '2026-10-14T09:30:15.000Z',
      mode: 'frozen',
    });
    expect((await both((control) => control.advanceClock(1_500)))[0]).toEqual({
      now: '2026-10-14T09:30:16.500Z',
    });
    expect((await both((control) => control.idle()))[0]).toEqual({ idle: true });
    expect((await both((control) => control.idle({ timeoutMs: 1 })))[0]).toEqual({ idle: true });
    const [magic] = await both((control) => control.listMagicNumbers({ limit: 2 }));
    expect(magic).toMatchObject({ object: 'list', has_more: true });
    expect(magic.data).toHaveLength(2);
    await both((control, pick) =>
      control.listMagicNumbers({ limit: 2, cursor: pick([magic, magic]).next_cursor! }),
    );

    expect(await refusedByBoth((control) => control.advanceClock(-1))).toMatchObject({
      status: 400,
      code: 'validation_error',
    });
    expect(await refusedByBoth((control) => control.idle({ timeoutMs: 0 }))).toMatchObject({
      status: 400,
      details: { field: 'timeout_ms' },
    });
    expect(await refusedByBoth((control) => control.idle({ timeoutMs: 60_001 }))).toMatchObject({
      status: 400,
      details: { field: 'timeout_ms' },
    });
    expect(await refusedByBoth((control) => control.listMagicNumbers({ limit: 101 }))).toMatchObject({
      status: 400,
      details: { field: 'limit' },
    });
    expect(await refusedByBoth((control) => control.listMagicNumbers({ cursor: 'nope' }))).toMatchObject({
      status: 400,
      details: { field: 'cursor' },
    });
  });

  test('workspaces, applications, keys, endpoints, chaos, deliveries, messages, connections, usage, faults', async () => {
    const workspace = await both((control) =>
      control.createWorkspace({ name: 'contract', clock: 'frozen', now: '2026-10-14T10:00:00Z' }),
    );
    const shared = await both((control) => control.createWorkspace({ name: 'shared clock' }));
    await both((control) => control.listWorkspaces());
    await both((control, pick) => control.getWorkspaceClock(pick(workspace).id));
    await both((control, pick) => control.advanceWorkspaceClock(pick(workspace).id, 2_000));
    expect(
      await refusedByBoth((control, pick) => control.advanceWorkspaceClock(pick(shared).id, 1)),
    ).toMatchObject({ status: 409, code: 'workspace_clock_shared' });
    expect(await refusedByBoth((control) => control.getWorkspaceClock(UNKNOWN_ID))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
    expect(await refusedByBoth((control) => control.createWorkspace({ name: '' }))).toMatchObject({
      status: 400,
      details: { field: 'name' },
    });

    const app = await both((control, pick) =>
      control.createApplication({
        name: 'contract app',
        environment: 'sandbox',
        workspace_id: pick(workspace).id,
      }),
    );
    const live = await both((control) =>
      control.createApplication({ name: 'live app', environment: 'live' }),
    );
    await both((control, pick) => control.listApplications({ workspaceId: pick(workspace).id }));
    await both((control) => control.listApplications({ limit: 1 }));
    const key = await both((control, pick) => control.createKey(pick(app).id, { scopes: ['messages.send'] }));
    expect(await refusedByBoth((control, pick) => control.createKey(pick(live).id))).toMatchObject({
      status: 409,
      code: 'agreement_required',
    });

    const endpoint = await both((control, pick) =>
      control.createEndpoint(pick(app).id, {
        url: receiver.url,
        events: ['webhook.test', 'message.status_updated'],
        description: 'parley listen → http://127.0.0.1:3000/webhooks',
      }),
    );
    expect(endpoint[0].description).toBe('parley listen → http://127.0.0.1:3000/webhooks');
    await both((control, pick) => control.listEndpoints({ applicationId: pick(app).id }));
    await both((control, pick) =>
      control.updateEndpoint(pick(endpoint).id, { events: ['webhook.test', 'message.status_updated'] }),
    );
    expect(
      await refusedByBoth((control, pick) =>
        control.updateEndpoint(pick(endpoint).id, { description: 'a\u001bb' }),
      ),
    ).toMatchObject({ status: 400, details: { field: 'description', reason: 'control_character' } });
    const cleared = await both((control, pick) =>
      control.updateEndpoint(pick(endpoint).id, { description: null }),
    );
    expect(cleared[0]).not.toHaveProperty('description');
    await both((control, pick) => control.rotateSecret(pick(endpoint).id));
    await both((control, pick) => control.setChaos(pick(endpoint).id, { duplicate: { next: 1 }, seed: 7 }));
    await both((control, pick) => control.getChaos(pick(endpoint).id));
    expect(
      await refusedByBoth((control, pick) => control.setChaos(pick(endpoint).id, { seed: -1 })),
    ).toMatchObject({ status: 400, details: { field: 'seed' } });
    expect(await refusedByBoth((control) => control.getChaos(UNKNOWN_ID))).toMatchObject({ status: 404 });

    await both((control, pick) => control.testEndpoint(pick(endpoint).id));
    expect((await both((control) => control.idle({ timeoutMs: 30_000 })))[0]).toEqual({ idle: true });
    await both((control, pick) => control.clearChaos(pick(endpoint).id));
    const deliveries = await both((control, pick) =>
      control.listDeliveries({ endpointId: pick(endpoint).id }),
    );
    expect(deliveries[0].data).toMatchObject([{ event_type: 'webhook.test', status: 'delivered' }]);
    expect(deliveries[0].data[0]!.attempts).toHaveLength(2);
    await both((control, pick) => control.replayDelivery(pick(deliveries).data[0]!.id));
    await both((control) => control.idle());
    await both((control, pick) => control.listDeliveries({ applicationId: pick(app).id, limit: 1 }));
    expect(await refusedByBoth((control) => control.replayDelivery(UNKNOWN_ID))).toMatchObject({
      status: 404,
    });

    await both((control, pick) =>
      control.sendMessage(pick(app).id, {
        connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
        to: '+33612345678',
        type: 'text',
        text: 'Bonjour',
      }),
    );
    await both((control, pick) => control.advanceWorkspaceClock(pick(workspace).id, 10_000));
    await both((control) => control.idle());
    await both((control, pick) => control.listMessages({ applicationId: pick(app).id }));
    await both((control, pick) => control.listEvents({ applicationId: pick(app).id }));
    const activityPages: ListEnvelope<ActivityItem>[] = [];
    const [statuses] = await both(async (control, pick) => {
      const page = await control.listActivity({ applicationId: pick(app).id, type: 'message', limit: 2 });
      activityPages.push(page);
      return withoutSeqs(page);
    });
    expect(statuses).toMatchObject({ object: 'list', has_more: true, next_cursor: '<cursor>' });
    expect(statuses.data.map((item) => item.kind === 'message' && item.status)).toEqual([
      'delivered',
      'sent',
    ]);
    const [accepted] = await both(async (control, pick) =>
      withoutSeqs(
        await control.listActivity({
          applicationId: pick(app).id,
          type: 'message',
          limit: 2,
          cursor: pick(activityPages as [ListEnvelope<ActivityItem>, ListEnvelope<ActivityItem>])
            .next_cursor!,
        }),
      ),
    );
    expect(accepted).toMatchObject({ has_more: false, next_cursor: null });
    expect(accepted.data.map((item) => item.kind === 'message' && item.status)).toEqual(['queued']);
    const [failedCalls] = await both(async (control, pick) =>
      withoutSeqs(await control.listActivity({ applicationId: pick(app).id, status: '5xx' })),
    );
    expect(failedCalls.data).toEqual([]);
    expect(
      await refusedByBoth((control) => control.listActivity({ type: 'message', limit: 101 })),
    ).toMatchObject({ status: 400, code: 'validation_error', details: { field: 'limit' } });
    expect(await refusedByBoth((control) => control.listActivity({ cursor: 'nope' }))).toMatchObject({
      status: 400,
      code: 'validation_error',
      details: { field: 'cursor' },
    });
    await both((control, pick) => control.listApplicationConnections(pick(app).id));
    await both((control, pick) => control.usage(pick(app).id));
    await both((control) => control.usage());

    await both((control, pick) => control.createKey(pick(live).id, { accept_agreement: true }));
    const connection = await both((control, pick) =>
      control.createConnection(pick(live).id, { phone_number: '+33612300001', name: 'Shop' }),
    );
    await both((control, pick) =>
      control.receiveInbound(pick(connection).id, { from: '+33612345678', text: 'Salut' }),
    );
    await both((control, pick) => control.disconnectConnection(pick(connection).id));
    expect(
      await refusedByBoth((control, pick) =>
        control.createConnection(pick(live).id, { phone_number: '12', name: 'Shop' }),
      ),
    ).toMatchObject({ status: 400, details: { field: 'phone_number' } });

    const fault = await both((control) =>
      control.createFault({
        method: 'GET',
        path: '/v1/status',
        times: 2,
        fault: { status: 503, code: 'internal_error' },
      }),
    );
    await both((control) => control.createFault({ fault: { delay_ms: 10 } }));
    await both((control) => control.listFaults());
    await both((control, pick) => control.deleteFault(pick(fault).id));
    expect(await refusedByBoth((control, pick) => control.deleteFault(pick(fault).id))).toMatchObject({
      status: 404,
    });
    await both((control) => control.clearFaults());
    await both((control) => control.listFaults());

    await both((control, pick) => control.resetWorkspace(pick(workspace).id));
    await both((control, pick) => control.revokeKey(pick(key).id));
    expect(await refusedByBoth((control, pick) => control.revokeKey(pick(key).id))).toMatchObject({
      status: 404,
    });
    await both((control, pick) => control.deleteEndpoint(pick(endpoint).id));
    await both((control) => control.health());
    expect((await both((control) => control.reset()))[0]).toEqual({ ok: true });
    await both((control) => control.listApplications());
  });

  test('export, import and the HAR of the traffic', async () => {
    const app = await both((control) =>
      control.createApplication({ name: 'bundle app', environment: 'sandbox' }),
    );
    await both((control, pick) =>
      control.sendMessage(pick(app).id, {
        connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
        to: '+33612345678',
        type: 'text',
        text: 'Exporté',
      }),
    );
    // The activity differs by design: calls over HTTP are control items of their own.
    const withoutActivity = <Bundle extends { activity: unknown }>(bundle: Bundle) => ({
      ...bundle,
      activity: null,
    });
    const [bundle] = await both(async (control) => withoutActivity(await control.export()));
    expect(bundle).toMatchObject({ format: 'parley-emulator-bundle', version: 1, secrets_included: false });
    const bundles = await compareWithout('activity', (control) => control.export({ includeSecrets: true }));
    const imported = await both((control, pick) => control.import(pick(bundles)));
    expect(imported[0]).toMatchObject({ ok: true, counts: { applications: 2, messages: 1 } });
    expect(
      await refusedByBoth((control, pick) => control.import({ ...pick(bundles), version: 2 })),
    ).toMatchObject({ status: 400, code: 'validation_error', details: { field: 'version' } });
    expect(await refusedByBoth((control) => control.export({ workspaceId: UNKNOWN_ID }))).toMatchObject({
      status: 404,
    });
    const [har] = await both((control) => control.har({ deliveries: true }));
    expect(har.log).toMatchObject({ version: '1.2', creator: { name: 'parley-emulator' } });
    expect(await refusedByBoth((control) => control.har({ since: 'yesterday' }))).toMatchObject({
      status: 400,
      details: { field: 'since' },
    });
  });

  test('conversations: the customer writes, the threads and one thread', async () => {
    const app = await both((control) =>
      control.createApplication({ name: 'conversation app', environment: 'sandbox' }),
    );
    const [received] = await both((control, pick) =>
      control.messageAsCustomer(pick(app).id, {
        connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
        from: '+33611112222',
        text: 'hi',
      }),
    );
    expect(received).toMatchObject({
      direction: 'inbound',
      from: '+33611112222',
      text: 'hi',
      livemode: false,
    });
    await both((control, pick) =>
      control.sendMessage(pick(app).id, {
        connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
        to: '+33611112222',
        type: 'text',
        text: 'hello',
      }),
    );
    const [threads] = await both((control, pick) => control.listConversations(pick(app).id));
    expect(threads.data).toEqual([
      {
        connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
        customer: '+33611112222',
        last_message_at: expect.any(String),
        last_text: 'hello',
        last_direction: 'outbound',
        message_count: 2,
      },
    ]);
    await both((control, pick) =>
      control.listConversations(pick(app).id, { connectionId: SANDBOX_ACTIVE_CONNECTION_ID, limit: 1 }),
    );
    const [thread] = await both((control, pick) =>
      control.getConversation(pick(app).id, {
        connectionId: SANDBOX_ACTIVE_CONNECTION_ID,
        number: '+33611112222',
      }),
    );
    expect(thread.items.map((item) => item.message.text)).toEqual(['hi', 'hello']);
    expect(thread).toMatchObject({ window: null, daily_cap: null, earlier: 0 });
    expect(
      await refusedByBoth((control, pick) =>
        control.messageAsCustomer(pick(app).id, {
          connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
          from: '12',
          text: 'hi',
        }),
      ),
    ).toMatchObject({ status: 400, details: { field: 'from', reason: 'invalid_format' } });
    expect(
      await refusedByBoth((control, pick) =>
        control.getConversation(pick(app).id, { connectionId: UNKNOWN_ID, number: '+33611112222' }),
      ),
    ).toMatchObject({ status: 404, details: { connection_id: UNKNOWN_ID } });
  });

  test('every method was called on both sides', () => {
    expect([...called].filter((name) => name !== 'then').sort()).toEqual([...CONTROL_METHODS].sort());
  });
});
