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
