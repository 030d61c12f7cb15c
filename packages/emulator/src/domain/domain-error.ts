import { EMULATOR_ERROR_STATUS, type EmulatorErrorCode } from './error-codes';

/**
 * A rule was broken. Domain code throws it; the HTTP layer turns it into the spec's error
 * body, taking the status from the one table (the SDK's `/v1` codes and the emulator's own).
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly status: number;

  constructor(
    readonly code: EmulatorErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.status = EMULATOR_ERROR_STATUS[code];
  }
}
