import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../create-emulator';
import { runScenario } from './run-scenario';

// Every file of examples/scenarios runs here, in one emulator, each in a workspace of its own (CI).
const DIRECTORY = fileURLToPath(new URL('../../../../examples/scenarios/', import.meta.url));
const FILES = readdirSync(DIRECTORY).filter((name) => name.endsWith('.yaml'));
const emulator = createEmulator({ clock: 'frozen' });
afterAll(() => emulator.close());

describe('examples/scenarios', () => {
  it('has the six documented scenarios', () => {
    expect(FILES.sort()).toEqual([
      'customer-conversation.yaml',
      'failed-recipient.yaml',
      'flaky-receiver.yaml',
      'live-conversation-window.yaml',
      'rate-limited-burst.yaml',
      'template-delivered.yaml',
    ]);
  });

  it.each(FILES)('%s passes, every step of it', async (name) => {
    const report = await runScenario(`${DIRECTORY}${name}`, { emulator, throwOnFailure: false });
    expect(report.failures).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.steps.every((step) => step.outcome === 'passed')).toBe(true);
  });
});
