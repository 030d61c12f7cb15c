/**
 * `@parley/emulator/control`: the typed client of the emulator's control API, for scripts, tests
 * and tools that talk to a running emulator. It carries no emulator code (no h3, no server): only
 * fetch and the types the emulator's own `emulator.control` has.
 */

export { type BoundedRead, readAtMost } from './control-client/_bounded-read';
export type { ControlFetch } from './control-client/_control-request';
export { MAX_CONTROL_ANSWER_BYTES } from './control-client/_control-request';
export {
  ControlResponseError,
  type ControlResponseReason,
  EmulatorControlError,
  isControlResponseError,
  isEmulatorControlError,
} from './control-client/control-client-errors';
export {
  type ControlClientOptions,
  createControlClient,
  DEFAULT_CONTROL_BASE_URL,
} from './control-client/create-control-client';
export { listAll } from './control-client/list-all';
export type {
  ActivityItem,
  ActivityQuery,
  ApplicationView,
  ChaosInput,
  ChaosView,
  ClockView,
  ConnectionWithTemplates,
  ControlPageQuery,
  ConversationItem,
  ConversationQuery,
  ConversationStatusStep,
  ConversationSummary,
  ConversationView,
  CreateApplicationInput,
  CreateConnectionInput,
  CreateEndpointInput,
  CreateFaultInput,
  CreateKeyInput,
  CreateWorkspaceInput,
  CustomerMessageInput,
  DeliveryView,
  EmulatorControl,
  EndpointView,
  ExportOptions,
  FaultView,
  HarLog,
  HarOptions,
  HealthView,
  IdleOptions,
  IdleView,
  ImportView,
  InboundInput,
  KeyView,
  MagicRecipient,
  PersistenceHealth,
  StateBundle,
  StateCounts,
  UpdateEndpointInput,
  UsageView,
  WorkspaceClockView,
  WorkspaceView,
} from './core/control-types';
// The ready key every emulator starts with: a client that found an emulator can use it (`parley status`).
export { DEFAULT_SANDBOX_KEY } from './core/defaults';
export type { FaultAnswer } from './domain/faults';
