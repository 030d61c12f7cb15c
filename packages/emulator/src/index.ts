export type { Clock, ClockMode, ScheduledJob, Scheduler } from './clock/clock-types';
export type {
  ActivityItem,
  ActivityQuery,
  ApplicationView,
  ChaosInput,
  ChaosView,
  ClockView,
  ControlPageQuery,
  CreateApplicationInput,
  CreateConnectionInput,
  CreateEndpointInput,
  CreateFaultInput,
  CreateKeyInput,
  CreateWorkspaceInput,
  DeliveryView,
  EmulatorControl,
  EndpointView,
  ExportOptions,
  HarLog,
  HarOptions,
  HealthView,
  IdleOptions,
  IdleView,
  ImportView,
  InboundInput,
  KeyView,
  StateBundle,
  UpdateEndpointInput,
  UsageView,
} from './core/control-types';
export {
  DEFAULT_APPLICATION_ID,
  DEFAULT_SANDBOX_KEY,
  DEFAULT_WORKSPACE_ID,
} from './core/defaults';
export type { FaultView } from './core/fault-table';
export type { WorkspaceClockView, WorkspaceView } from './core/workspaces';
export { createEmulator, type Emulator, type EmulatorOptions } from './create-emulator';
export { DAILY_SEND_LIMIT } from './domain/daily-cap';
export { EMULATOR_ERROR_STATUS, type EmulatorErrorCode } from './domain/error-codes';
export type { FaultAnswer } from './domain/faults';
export { MAGIC_RECIPIENTS, type MagicBehaviour, type MagicRecipient } from './domain/magic-recipients';
export { LIVE_STEPS, SANDBOX_STEPS, type StatusStep } from './domain/message-lifecycle';
export { RATE_LIMITS } from './domain/rate-limit-window';
export { RETRY_SCHEDULES, type RetrySchedule, type RetryScheduleName } from './domain/retry-schedule';
export {
  SANDBOX_ACTIVE_CONNECTION_ID,
  SANDBOX_CONNECTIONS,
  SANDBOX_DISCONNECTED_CONNECTION_ID,
  SYNTHETIC_INBOUND_TEXT,
  SYNTHETIC_SENDER,
  TEMPLATE_DEFINITIONS,
} from './domain/sandbox-fixtures';
export {
  createSandbox,
  type Sandbox,
  type SandboxClientOptions,
  type SandboxOptions,
  type SandboxReceiverOptions,
} from './sandbox/create-sandbox';
export type { Duration } from './sandbox/duration';
export type { SandboxReceiver, WebhookEventOf } from './sandbox/sandbox-receiver';
export { parseScenario, ScenarioFileError, type ScenarioIssue } from './scenario/parse-scenario';
export { type RecordScenarioOptions, recordScenario } from './scenario/record-scenario';
export {
  loadScenario,
  type RunScenarioOptions,
  runScenario,
  ScenarioFailedError,
  type ScenarioInput,
  type ScenarioReport,
  type ScenarioStepReport,
} from './scenario/run-scenario';
export type { Scenario, ScenarioStep } from './scenario/scenario-types';
export { type CliIo, runCli } from './server/run-cli';
export { type EmulatorServer, type EmulatorServerOptions, startEmulatorServer } from './server/start-server';
export { parseSeed, SeedError } from './store/parse-seed';
export type {
  SeedApplication,
  SeedConnection,
  SeedFile,
  SeedTemplate,
  SeedWorkspace,
} from './store/seed-types';
export type { DeliveryNetwork, WebhookNetwork } from './webhooks/delivery-attempt';
export type { HostResolver } from './webhooks/url-policy';
export { WEBHOOK_TEST_MESSAGE } from './webhooks/webhook-test-event';
