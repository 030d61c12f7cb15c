// Entry `@parley/emulator/vitest`: a sandbox per test as vitest fixtures (vitest is a peer dependency).
import type { Parley } from '@parley/sdk';
import { test as baseTest, type TestAPI } from 'vitest';
import { createEmulator, type Emulator, type EmulatorOptions } from './create-emulator';
import { createSandbox, type Sandbox, type SandboxOptions } from './sandbox/create-sandbox';

export type {
  Sandbox,
  SandboxClientOptions,
  SandboxOptions,
  SandboxReceiverOptions,
} from './sandbox/create-sandbox';
export type { Duration } from './sandbox/duration';
export type { SandboxReceiver, WebhookEventOf } from './sandbox/sandbox-receiver';
export { parseScenario, ScenarioFileError, type ScenarioIssue } from './scenario/parse-scenario';
export {
  type RunScenarioOptions,
  runScenario,
  ScenarioFailedError,
  type ScenarioInput,
  type ScenarioReport,
  type ScenarioStepReport,
} from './scenario/run-scenario';

/** Options of {@link createSandboxTest}. */
export interface SandboxTestOptions {
  /** Options of the worker's emulator (the clock is always `frozen`: each sandbox moves its own). */
  emulator?: Omit<EmulatorOptions, 'clock' | 'dataDir'>;
  /** Options of every test's sandbox; its name defaults to the test's. */
  sandbox?: SandboxOptions;
}

/** The fixtures a test of {@link createSandboxTest} can name; each is its own sandbox's. */
export interface SandboxFixtures {
  /** Started once per worker (scope `worker`), on a frozen global clock nobody moves. */
  emulator: Emulator;
  sandbox: Sandbox;
  parley: Parley;
  advance: Sandbox['advance'];
  receiver: Sandbox['receiver'];
  trigger: Sandbox['trigger'];
}

/**
 * A vitest `test` whose tests each get a sandbox of their own in an in-process emulator started
 * once per worker (fixture `emulator`, scope `worker`). Fixtures, set up only for tests that name
 * them: `sandbox` (workspace, application, key, frozen clock), `parley` (its SDK client),
 * `advance('5s')`, `receiver()` and `trigger(type)`. After each test its sandbox is disposed:
 * pending deliveries and retries stop and its receivers close.
 *
 * @example
 * export const test = createSandboxTest({ emulator: { retrySchedule: 'none' } });
 */
export function createSandboxTest(options: SandboxTestOptions = {}): TestAPI<SandboxFixtures> {
  return baseTest.extend<{
    $worker: Pick<SandboxFixtures, 'emulator'>;
    $test: Omit<SandboxFixtures, 'emulator'>;
  }>({
    emulator: [
      // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern
      async ({}, use) => {
        const emulator = createEmulator({ ...options.emulator, clock: 'frozen' });
        await emulator.ready;
        await use(emulator);
        await emulator.close();
      },
      { scope: 'worker' },
    ],
    sandbox: async ({ emulator, task }, use) => {
      const sandbox = await createSandbox(emulator, { name: task.name, ...options.sandbox });
      try {
        await use(sandbox);
      } finally {
        await sandbox.dispose();
      }
    },
    parley: fromSandbox('parley'),
    advance: fromSandbox('advance'),
    receiver: fromSandbox('receiver'),
    trigger: fromSandbox('trigger'),
  });
}

// A fixture that is one member of the test's sandbox (its methods are bound).
function fromSandbox<Key extends 'parley' | 'advance' | 'receiver' | 'trigger'>(key: Key) {
  return ({ sandbox }: { sandbox: Sandbox }, use: (value: Sandbox[Key]) => Promise<void>) =>
    use(sandbox[key]);
}

/**
 * vitest's `test` with a sandbox per test ({@link createSandboxTest} with the defaults).
 *
 * @example
 * import { test } from '@parley/emulator/vitest';
 * import { expect } from 'vitest';
 *
 * test('a confirmation is delivered 5 s after it is sent', async ({ parley, advance, receiver }) => {
 *   const hook = await receiver();
 *   const message = await parley.messages.send({ type: 'text', connection_id, to: '+33612345678', text: 'Hi' });
 *   await advance('5s');
 *   expect((await parley.messages.get(message.id)).status).toBe('delivered');
 *   expect((await hook.next('message.status_updated')).data.message.status).toBe('sent');
 * });
 */
export const test = createSandboxTest();

/** The same as {@link test}. */
export const it = test;
