// @parley/emulator/rules: the emulator's rules a client reads without loading the emulator (the
// CLI's `clock advance` and its completion). Only dependency-free modules go here, never a server.
export { ACTIVITY_STATUSES } from './domain/activity-statuses';
export { CHAOS_KINDS, type ChaosKind } from './domain/chaos-kinds';
export {
  DURATION_EXAMPLES,
  DURATION_UNITS,
  type DurationReading,
  formatDuration,
  MAX_ADVANCE_MS,
  parseDuration,
  readDuration,
} from './domain/duration';
export {
  EMULATOR_FLAGS,
  type EmulatorFlag,
  type EmulatorFlagName,
  flagHelp,
  flagSpelling,
} from './server/emulator-flags';
