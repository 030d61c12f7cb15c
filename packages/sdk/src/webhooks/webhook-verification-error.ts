import { brandError, ParleyError } from '../errors/parley-error';

/** Why a webhook delivery was refused by {@link verifyWebhook}. */
export type WebhookVerificationReason =
  | 'missing_header'
  | 'invalid_timestamp'
  | 'timestamp_out_of_range'
  | 'invalid_signature_header'
  | 'signature_mismatch'
  | 'invalid_payload';

/**
 * Thrown by `verifyWebhook` when a delivery must not be trusted. Answer such a request with
 * 400 and do not process it; `reason` tells what failed.
 */
export class WebhookVerificationError extends ParleyError {
  declare readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** True for a {@link WebhookVerificationError}, also from another copy of the package. */
export const isWebhookVerificationError = brandError(WebhookVerificationError, 'WebhookVerificationError');
