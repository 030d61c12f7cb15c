import { ERROR_STATUS, type ErrorCode } from '@parley/sdk';

/**
 * A rule was broken. Domain code throws it; the HTTP layer turns it into the spec's error
 * body, taking the status from the SDK's one table (STYLE item 7).
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}
