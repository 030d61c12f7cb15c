import { ERROR_STATUS } from '@parley/sdk';

/**
 * Every code the emulator answers with its HTTP status: the `/v1` API's (the SDK's one table,
 * STYLE item 7), and those of the emulator alone, which no client of the real service meets:
 * its control API's refusals and the guards of its socket (docs/errors.md).
 */
export const EMULATOR_ERROR_STATUS = {
  ...ERROR_STATUS,
  /** An endpoint URL the URL policy refuses. */
  invalid_url: 400,
  /** The DNS-rebinding guard: a `Host` other than loopback. */
  host_not_allowed: 403,
  /** The control API called from another site. */
  origin_not_allowed: 403,
  /** The first live key of a workspace without `accept_agreement: true`. */
  agreement_required: 409,
  /** Advancing a workspace that shares the global clock. */
  workspace_clock_shared: 409,
  /** Request headers past Node's limit. */
  headers_too_large: 431,
} as const;

/** A code of {@link EMULATOR_ERROR_STATUS}. */
export type EmulatorErrorCode = keyof typeof EMULATOR_ERROR_STATUS;
