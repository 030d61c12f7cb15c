/**
 * @parley/test-utils: what tests in several packages share (STYLE 17). Private, never built:
 * vitest and tsc resolve these sources through the root aliases.
 */
export type { CliProcess, CliResult } from './cli-process';
export { assertCliBuilt, CLI_PATH, cliEnv, runCli, startCli } from './cli-process';
export { closedPort } from './closed-port';
export type { ReadyLine, RunningEmulatorBin } from './emulator-bin';
export {
  EMULATOR_BIN,
  ensureEmulatorBuilt,
  runEmulatorBin,
  startEmulatorBin,
  stopEmulatorBins,
} from './emulator-bin';
export type { HostileApi, RegisteredEndpoint } from './hostile-api';
export { MISSING_MESSAGE_ID, REFUSED_TEXT, startHostileApi } from './hostile-api';
export type { NodeProcess, NodeProcessOptions, ProcessResult } from './node-process';
export { startNodeProcess, stopStartedProcesses } from './node-process';
export type { ReceivedRequest, TestReceiver } from './receiver';
export { startReceiver, TEST_CA, TEST_TLS_KEY } from './receiver';
export {
  deliveryRequest,
  eventId,
  MESSAGE_ID,
  signedDelivery,
  statusEvent,
  TEST_SECRET,
  testEvent,
  webhookEvent,
} from './webhook-events';
