import { afterAll, expect, it } from 'vitest';
import { createEmulator } from '../create-emulator';
import { createSandbox } from '../sandbox/create-sandbox';
import { parseScenario } from './parse-scenario';
import { recordScenario } from './record-scenario';
import { runScenario } from './run-scenario';

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
