/** Runs `scenario` on a fresh emulator (clock frozen), closed after; its report and the state its reset exported. */
async function replayOnFreshEmulator(scenario: Scenario) {
  const fresh = createEmulator({ clock: 'frozen' });
  try {
    const replay = exportingBeforeReset(fresh);
    const report = await runScenario(scenario, { emulator: replay.emulator, throwOnFailure: false });
    return { report, exported: replay.exported };
  } finally {
    await fresh.close();
  }
}

import { afterAll, expect, it } from 'vitest';
import type { StateBundle } from '../core/bundle-types';
import { createEmulator, type Emulator } from '../create-emulator';
import { createSandbox } from '../sandbox/create-sandbox';
import { parseScenario } from './parse-scenario';
import { recordScenario } from './record-scenario';
import { runScenario } from './run-scenario';
import type { Scenario } from './scenario-types';

const emulator = createEmulator({ clock: 'frozen' });
afterAll(() => emulator.close());

// Message times are whole seconds (`created_at`): a recording replays sends to the second.
it('record → run → pass: the recorded sends at their times, and the statuses they reached', async () => {
  const sandbox = await createSandbox(emulator, { now: '2026-11-02T09:00:00Z' });
  const connection_id = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
  await sandbox.parley.messages.send({ type: 'text', connection_id, to: '+33612345678', text: 'Hi' });
  await sandbox.advance('3s');
  await sandbox.parley.messages.send({ type: 'text', connection_id, to: '+15550101004', text: 'Lost' });
  await sandbox.advance('1m30s');
  await sandbox.parley.messages.send({
    type: 'text',
    connection_id,
    to: '+15550101001',
    text: 'Stays',
    client_reference: 'r1',
  });
  await sandbox.advance('3s');

  const text = await recordScenario(emulator.control, {
    applicationId: sandbox.applicationId,
    name: 'replay',
  });
  const scenario = parseScenario(text, 'recorded.yaml');
  expect(
    scenario.steps.map((step) => (step.kind === 'advance' ? `advance ${step.text}` : step.kind)),
  ).toEqual([
    'send',
    'advance 3s',
    'send',
    'advance 1m30s',
    'send',
    'advance 3s',
    'expect_status',
    'expect_status',
    'expect_status',
  ]);
  expect(scenario.steps.flatMap((step) => (step.kind === 'expect_status' ? [step.status] : []))).toEqual([
    'delivered',
    'failed',
    'sent',
  ]);
  const report = await runScenario(scenario, { emulator });
  expect(report.passed).toBe(true);
  await sandbox.dispose();
});

it('record → run → pass: a customer message, the reply, and the deliveries the endpoint got', async () => {
  const sandbox = await createSandbox(emulator, { now: '2026-11-02T09:00:00Z' });
  const connection_id = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
  await sandbox.receiver();
  await emulator.control.messageAsCustomer(sandbox.applicationId, {
    connection_id,
    from: '+33612345678',
    text: 'Is my order shipped?',
  });
  await sandbox.advance('2s');
  await sandbox.parley.messages.send({ type: 'text', connection_id, to: '+33612345678', text: 'Yes' });
  await sandbox.advance('5s');

  const text = await recordScenario(emulator.control, { applicationId: sandbox.applicationId });
  const scenario = parseScenario(text, 'recorded.yaml');
  expect([...scenario.endpoints.keys()]).toEqual(['app']);
  expect(
    scenario.steps.map((step) =>
      step.kind === 'advance'
        ? `advance ${step.text}`
        : step.kind === 'customer'
          ? `customer ${step.from} ${step.text}`
          : step.kind === 'expect_delivery'
            ? `expect_delivery ${step.type} ${step.message ?? ''} ${JSON.stringify([...step.fields])}`
            : step.kind,
    ),
  ).toEqual([
    'customer +33612345678 Is my order shipped?',
    'advance 2s',
    'send',
    'advance 5s',
    'expect_status',
    'expect_delivery message.received  [["data.message.from","+33612345678"],["data.message.text","Is my order shipped?"]]',
    'expect_delivery message.status_updated message_1 [["data.message.status","sent"]]',
    'expect_delivery message.status_updated message_1 [["data.message.status","delivered"]]',
  ]);
  const report = await runScenario(scenario, { emulator });
  expect(report.failures).toEqual([]);
  expect(report.passed).toBe(true);
  await sandbox.dispose();
});

it('a recorded customer message the replay does not make fails the run (the expectation can fail)', async () => {
  const sandbox = await createSandbox(emulator, { now: '2026-11-02T09:00:00Z' });
  await sandbox.receiver();
  await emulator.control.messageAsCustomer(sandbox.applicationId, {
    connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
    from: '+33612345678',
    text: 'Hello',
  });
  await sandbox.advance('1s');
  const text = await recordScenario(emulator.control, { applicationId: sandbox.applicationId });
  const tampered = text.replace(
    'customer:\n      from: "+33612345678"',
    'customer:\n      from: "+33612345679"',
  );
  expect(tampered).not.toBe(text);
  const report = await runScenario(parseScenario(tampered, 'recorded.yaml'), {
    emulator,
    throwOnFailure: false,
  });
  expect(report.passed).toBe(false);
  expect(report.failures.map((failure) => failure.path)).toEqual(['steps[2]']);
  await sandbox.dispose();
});

it('record → run → pass: a live application, a reply inside the window and one 24 h later (failed, its code)', async () => {
  const { control } = emulator;
  const workspace = await control.createWorkspace({
    name: 'live',
    clock: 'frozen',
    now: '2026-11-02T09:00:00.000Z',
  });
  const app = await control.createApplication({
    name: 'Shop',
    environment: 'live',
    workspace_id: workspace.id,
  });
  await control.createKey(app.id, { accept_agreement: true });
  const connection = await control.createConnection(app.id, { phone_number: '+14155550100' });
  await control.messageAsCustomer(app.id, { connection_id: connection.id, from: '+33612345678', text: 'Hi' });
  await control.sendMessage(app.id, {
    type: 'text',
    connection_id: connection.id,
    to: '+33612345678',
    text: 'Yes',
  });
  await control.advanceWorkspaceClock(workspace.id, 24 * 3_600_000);
  await control.sendMessage(app.id, {
    type: 'text',
    connection_id: connection.id,
    to: '+33612345678',
    text: 'Late',
  });
  await control.advanceWorkspaceClock(workspace.id, 5_000);

  const text = await recordScenario(control, { applicationId: app.id });
  const scenario = parseScenario(text, 'recorded.yaml');
  expect(scenario.application).toBe('live');
  expect(
    scenario.steps.map((step) =>
      step.kind === 'advance'
        ? `advance ${step.text}`
        : step.kind === 'expect_status'
          ? `expect_status ${step.message} ${step.status} ${step.error ?? ''}`
          : step.kind === 'send'
            ? `send ${JSON.stringify(step.body)}`
            : step.kind,
    ),
  ).toEqual([
    'customer',
    'send {"type":"text","to":"+33612345678","text":"Yes"}',
    'advance 1d',
    'send {"type":"text","to":"+33612345678","text":"Late"}',
    'advance 5s',
    'expect_status message_1 read ',
    'expect_status message_2 failed outside_messaging_window',
  ]);
  const report = await runScenario(scenario, { emulator, throwOnFailure: false });
  expect(report.failures).toEqual([]);
  expect(report.passed).toBe(true);
  await control.resetWorkspace(workspace.id);
});

const ACTIVE = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';

// What a workspace held, ids left out (the replay makes its own): each message as accepted with
// its time and variables, each event's type, time and data.
function replayable(bundle: StateBundle) {
  return {
    messages: bundle.messages.map(({ message: { id: _id, ...message }, variables, accepted_at }) => ({
      message,
      variables,
      accepted_at,
    })),
    events: bundle.events.map(({ event }) => {
      const data = structuredClone(event.data) as { message?: { id?: string } };
      if (data.message && typeof data.message === 'object') delete data.message.id;
      return { type: event.type, created_at: event.created_at, data };
    }),
  };
}

// A fresh emulator whose workspaces are exported just before they are reset: a scenario run
// disposes of its sandbox, and the test compares what the replay made.
function exportingBeforeReset(target: Emulator): { emulator: Emulator; exported: StateBundle[] } {
  const exported: StateBundle[] = [];
  const control = new Proxy(target.control, {
    get(object, property) {
      if (property === 'resetWorkspace') {
        return async (id: string) => {
          exported.push(await object.export({ workspaceId: id }));
          return object.resetWorkspace(id);
        };
      }
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
  const emulator = new Proxy(target, {
    get(object, property) {
      if (property === 'control') return control;
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
  return { emulator, exported };
}

it('record → run: a template send is recorded with its variables exactly as sent; the replay sends the same message', async () => {
  const sandbox = await createSandbox(emulator, { now: '2026-11-02T09:00:00Z' });
  await sandbox.parley.messages.send({
    type: 'template',
    connection_id: ACTIVE,
    to: '+33612345678',
    template: { name: 'order_confirmation', language: 'fr', variables: ['Ana', 'A-1042'] },
  });
  await sandbox.advance('5s');
  const original = await emulator.control.export({ workspaceId: sandbox.workspaceId });

  const text = await recordScenario(emulator.control, { applicationId: sandbox.applicationId });
  expect(text).toBe(
    [
      'version: 1',
      'name: recorded',
      'start: 2026-11-02T09:00:00.000Z',
      'steps:',
      '  - send:',
      '      name: message_1',
      '      body:',
      '        type: template',
      '        to: "+33612345678"',
      '        template:',
      '          name: order_confirmation',
      '          language: fr',
      '          variables:',
      '            - Ana',
      '            - A-1042',
      '  - advance: 5s',
      '  - expect_status:',
      '      message: message_1',
      '      status: delivered',
      '',
    ].join('\n'),
  );
  const replay = await replayOnFreshEmulator(parseScenario(text, 'recorded.yaml'));
  expect(replay.report.failures).toEqual([]);
  expect(replay.exported).toHaveLength(1);
  expect(replayable(replay.exported[0]!)).toEqual(replayable(original));
  expect(replay.exported[0]!.messages.map((record) => record.variables)).toEqual([['Ana', 'A-1042']]);
  await sandbox.dispose();
});

it('record → run: triggered sandbox events are trigger steps, clock advances are kept one by one, and a fault and chaos are named in comments', async () => {
  const sandbox = await createSandbox(emulator, { now: '2026-11-02T09:00:00Z', client: { maxRetries: 0 } });
  const receiver = await sandbox.receiver();
  await sandbox.parley.messages.send({
    type: 'template',
    connection_id: ACTIVE,
    to: '+33612345678',
    template: { name: 'order_confirmation', language: 'fr', variables: ['Ana', 'A-1042'] },
  });
  await sandbox.advance('2s');
  await sandbox.trigger('message.status_updated', {
    'data.message.status': 'failed',
    'data.message.to': '+15550101004',
    'data.message.client_reference': 'ref-9',
  });
  await sandbox.advance('3s');
  const fault = await emulator.control.createFault({
    method: 'POST',
    path: '/v1/messages',
    key_id: sandbox.keyId,
    times: 1,
    fault: { status: 503, code: 'internal_error' },
  });
  await expect(
    sandbox.parley.messages.send({ type: 'text', connection_id: ACTIVE, to: '+33612345678', text: 'Lost' }),
  ).rejects.toMatchObject({ code: 'internal_error', status: 503 });
  await sandbox.advance('1s');
  await emulator.control.setChaos(receiver.endpointId, { duplicate: { next: 1 }, seed: 7 });
  await sandbox.trigger('connection.disconnected', { 'data.connection.quality_rating': 'RED' });
  await sandbox.advance('4s');
  await sandbox.advance('6s');
  const original = await emulator.control.export({ workspaceId: sandbox.workspaceId });

  const text = await recordScenario(emulator.control, { applicationId: sandbox.applicationId });
  const comments = text.split('\n').filter((line) => line.startsWith('#'));
  expect(comments).toEqual([
    '# Seen in the emulator and not recorded (the scenario language cannot replay it faithfully):',
    `# - fault ${fault.id} (POST /v1/messages, key ${sandbox.keyId}: 503 internal_error, times 1, 0 left) answered POST /v1/messages at 2026-11-02T09:00:05.000Z (+5s): the emulator keeps no body of a call a fault answered, so the replay cannot make that call again, and a fault step would answer another call`,
    `# - chaos on endpoint ${receiver.endpointId} (seed 7; now duplicate {"next":0}; applied duplicate 1): when it was set is not kept, so the replay's deliveries have no chaos`,
  ]);
  const scenario = parseScenario(text, 'recorded.yaml');
  expect(
    scenario.steps.map((step) =>
      step.kind === 'advance'
        ? `advance ${step.text}`
        : step.kind === 'trigger'
          ? `trigger ${step.type} ${JSON.stringify(step.overrides)}`
          : step.kind === 'expect_delivery'
            ? `expect_delivery ${step.type} ${step.message ?? ''} ${JSON.stringify([...step.fields])}`
            : step.kind,
    ),
  ).toEqual([
    'send',
    'advance 2s',
    'trigger message.status_updated {"data.message.status":"failed","data.message.to":"+15550101004","data.message.client_reference":"ref-9","data.message.template.name":"hello_world","data.message.template.language":"en"}',
    'advance 3s',
    'advance 1s',
    'trigger connection.disconnected {"data.connection.name":"Parley Sandbox (disconnected)","data.connection.phone_number":"+15550100002","data.connection.quality_rating":"RED"}',
    'advance 4s',
    'advance 6s',
    'expect_status',
    'expect_delivery message.status_updated message_1 [["data.message.status","sent"]]',
    'expect_delivery message.status_updated  [["data.message.status","failed"],["data.message.to","+15550101004"],["data.message.client_reference","ref-9"],["data.message.template.name","hello_world"],["data.message.template.language","en"]]',
    'expect_delivery message.status_updated message_1 [["data.message.status","delivered"]]',
    'expect_delivery connection.disconnected  [["data.connection.name","Parley Sandbox (disconnected)"],["data.connection.phone_number","+15550100002"],["data.connection.quality_rating","RED"]]',
  ]);
  const replay = await replayOnFreshEmulator(scenario);
  expect(replay.report.failures).toEqual([]);
  expect(replayable(replay.exported[0]!)).toEqual(replayable(original));
  await sandbox.dispose();
});

it('record: an endpoint test, a fault that answered nothing yet and a history the activity feed no longer holds are named in comments', async () => {
  const sandbox = await createSandbox(emulator, { now: '2026-11-02T09:00:00Z' });
  const receiver = await sandbox.receiver();
  const sent = await sandbox.parley.messages.send({
    type: 'text',
    connection_id: ACTIVE,
    to: '+33612345678',
    text: 'Hi',
  });
  await sandbox.advance('1s');
  const { event_id } = await emulator.control.testEndpoint(receiver.endpointId);
  const armed = await emulator.control.createFault({
    method: 'GET',
    path: '/v1/status',
    key_id: sandbox.keyId,
    times: 2,
    fault: { hang: true },
  });
  // 1,100 items push the send's own out of the feed (it keeps the last 1,000): calls without a
  // key, which no rate limit counts.
  for (let i = 0; i < 1_100; i++) {
    const answer = await emulator.fetch(new Request(`http://127.0.0.1:4010/v1/messages/${sent.id}`));
    expect(answer.status).toBe(401);
    await answer.body?.cancel();
  }
  await expect(
    sandbox.parley.messages.send({
      type: 'template',
      connection_id: ACTIVE,
      to: '+33612345678',
      template: { name: 'no_such_template', language: 'en' },
    }),
  ).rejects.toMatchObject({ code: 'validation_error', status: 400 });
  await sandbox.advance('1s');
  const text = await recordScenario(emulator.control, { applicationId: sandbox.applicationId });
  const feed = await emulator.control.export({ workspaceId: sandbox.workspaceId });
  expect(text.split('\n').filter((line) => line.startsWith('#'))).toEqual([
    '# Seen in the emulator and not recorded (the scenario language cannot replay it faithfully):',
    `# - the emulator's activity feed (its last 1,000 items) holds this application's history from ${feed.activity.items[0]!.at} on: faults, triggered events and clock advances before that are not known, and an event a sandbox call made before it is not a trigger step`,
    `# - fault ${armed.id} (GET /v1/status, key ${sandbox.keyId}: no answer (hang), times 2, 2 left) answered no call of this application: when it was set is not kept (its created_at is the emulator's own time)`,
    '# - 1 call(s) POST /v1/messages refused with 400, the first at 2026-11-02T09:00:01.000Z (+1s): a refused call changed nothing; not replayed',
    `# - event webhook.test ${event_id} delivered to endpoint ${receiver.endpointId} at 2026-11-02T09:00:01.000Z (+1s): an endpoint test (POST /_emulator/endpoints/{id}/test) goes to one endpoint; no step makes it`,
  ]);
  // Every item of the send's second (its request, its acceptance) is gone from the feed.
  expect(feed.activity.items.every((item) => item.at > '2026-11-02T09:00:00.000Z')).toBe(true);
  await emulator.control.deleteFault(armed.id);
  await sandbox.dispose();
});

it('record: a send and a triggered event replay at their millisecond, in the order they happened', async () => {
  const sandbox = await createSandbox(emulator, { now: '2026-11-02T09:00:00Z' });
  await sandbox.parley.messages.send({ type: 'text', connection_id: ACTIVE, to: '+33612345678', text: 'A' });
  await sandbox.advance('1500ms');
  await sandbox.parley.messages.send({ type: 'text', connection_id: ACTIVE, to: '+33612345678', text: 'B' });
  await sandbox.trigger('connection.connected');
  await sandbox.advance('2s');
  const original = await emulator.control.export({ workspaceId: sandbox.workspaceId });

  const text = await recordScenario(emulator.control, { applicationId: sandbox.applicationId });
  const scenario = parseScenario(text, 'recorded.yaml');
  expect(
    scenario.steps.map((step) =>
      step.kind === 'advance'
        ? `advance ${step.text}`
        : step.kind === 'send'
          ? `send ${step.body.type === 'text' ? step.body.text : ''}`
          : step.kind === 'trigger'
            ? `trigger ${step.type}`
            : step.kind,
    ),
  ).toEqual([
    'send A',
    'advance 1s500ms',
    'send B',
    'trigger connection.connected',
    'advance 2s',
    'expect_status',
    'expect_status',
  ]);
  const replay = await replayOnFreshEmulator(scenario);
  expect(replay.report.failures).toEqual([]);
  expect(replayable(replay.exported[0]!)).toEqual(replayable(original));
  await sandbox.dispose();
});
