import { expect, test } from 'vitest';
import * as emulator from './index';
import * as msw from './msw';
import * as vitestEntry from './vitest';

test('the public surface of @parley/emulator is exactly this (review any change)', () => {
  expect(Object.keys(emulator).sort()).toMatchInlineSnapshot(`
    [
      "DAILY_SEND_LIMIT",
      "DEFAULT_APPLICATION_ID",
      "DEFAULT_SANDBOX_KEY",
      "DEFAULT_WORKSPACE_ID",
      "EMULATOR_ERROR_STATUS",
      "LIVE_STEPS",
      "MAGIC_RECIPIENTS",
      "RATE_LIMITS",
      "RETRY_SCHEDULES",
      "SANDBOX_ACTIVE_CONNECTION_ID",
      "SANDBOX_CONNECTIONS",
      "SANDBOX_DISCONNECTED_CONNECTION_ID",
      "SANDBOX_STEPS",
      "SYNTHETIC_INBOUND_TEXT",
      "SYNTHETIC_SENDER",
      "ScenarioFailedError",
      "ScenarioFileError",
      "SeedError",
      "TEMPLATE_DEFINITIONS",
      "WEBHOOK_TEST_MESSAGE",
      "createEmulator",
      "createSandbox",
      "loadScenario",
      "parseScenario",
      "parseSeed",
      "recordScenario",
      "runCli",
      "runScenario",
      "startEmulatorServer",
    ]
  `);
  expect(Object.keys(msw).sort()).toMatchInlineSnapshot(`
    [
      "createEmulatorHandlers",
    ]
  `);
  expect(Object.keys(vitestEntry).sort()).toMatchInlineSnapshot(`
    [
      "ScenarioFailedError",
      "ScenarioFileError",
      "createSandboxTest",
      "it",
      "parseScenario",
      "runScenario",
      "test",
    ]
  `);
});
