// @parley/cli as a library: every command as a plain async function (options in, data out), for
// scripts and tests that want the CLI's behaviour without a process. The bin is `parley`.
export { type CompletionOptions, completion } from './commands/completion/index';
export { type ConfigDeleteOptions, type ConfigDeleteResult, configDelete } from './commands/config/delete';
export { configList, type ProfileSummary } from './commands/config/list';
export { type ConfigSetOptions, type ConfigSetResult, configSet } from './commands/config/set';
export { type ConfigUseOptions, configUse } from './commands/config/use';
export { listConnections } from './commands/connections/index';
export {
  advanceEmulatorClock,
  type ClockAdvanceOptions,
  type ClockAdvanceResult,
} from './commands/emulator/advance';
export { type ChaosOptions, type ChaosResult, endpointChaos } from './commands/emulator/chaos';
export { type EmulatorClockOptions, emulatorClock } from './commands/emulator/clock';
export { addFault, type FaultsAddOptions } from './commands/emulator/faults-add';
export {
  clearFaults,
  type FaultsClearOptions,
  type FaultsClearResult,
} from './commands/emulator/faults-clear';
export { listFaults } from './commands/emulator/faults-list';
export { type EmulatorStartOptions, startEmulator } from './commands/emulator/index';
export { magicNumbers } from './commands/emulator/magic-numbers';
export {
  type EmulatorResetOptions,
  type EmulatorResetResult,
  resetEmulator,
} from './commands/emulator/reset';
export { type EmulatorStatus, emulatorStatus } from './commands/emulator/status';
export { type ListenOptions, type ListenSummary, listen, type PrintedSecret } from './commands/listen/index';
export { getMessage, type MessagesGetOptions } from './commands/messages/index';
export { type SendOptions, send } from './commands/send/index';
export { type StatusResult, status } from './commands/status/index';
export { listTemplates, type TemplatesOptions } from './commands/templates/index';
export { type TriggerOptions, trigger } from './commands/trigger/index';
export { type SignedDelivery, type SignOptions, sign as signDelivery } from './commands/webhooks/sign';
export { type VerifyOptions, type VerifyResult, verify as verifyDelivery } from './commands/webhooks/verify';
export type { ClientOptions, Credentials } from './config/resolve-credentials';
export { type CommandContext, type ContextOptions, createContext, type OutputStream } from './context';
export { type ErrorOutput, EXIT, type ExitCode, ExitError, isExitError } from './exit-error';
