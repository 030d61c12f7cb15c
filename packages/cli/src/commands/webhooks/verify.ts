import { isWebhookVerificationError, verifyWebhook, type WebhookEvent } from '@parley/sdk';
import type { CommandContext } from '../../context';
import { EXIT, ExitError, usageError } from '../../exit-error';
import { readInputFile } from '../../input-file';
import { renderFields } from '../../output/table';
import { defineCommand } from '../command-module';
import { parseHeaderFile } from './_header-file';
import { webhookSecrets } from './_secrets';

/** `parley webhooks verify`. */
export interface VerifyOptions {
  secret?: string[];
  headers: string;
  body: string;
  /** Seconds, as typed; `Infinity` checks only the signature (an old capture). */
  tolerance?: string | number;
}

/** A delivery that passed. */
export interface VerifyResult {
  valid: true;
  event: WebhookEvent;
}

/**
 * Verifies a captured delivery offline with the SDK's `verifyWebhook`. A refusal is exit 1 with
 * the SDK's reason and message (`signature_mismatch: …`), so the user knows exactly what to fix.
 */
export async function verify(options: VerifyOptions, context: CommandContext): Promise<VerifyResult> {
  const secrets = webhookSecrets(options.secret, context.env);
  if (options.headers === '-' && options.body === '-')
    throw usageError('--headers and --body cannot both be stdin');
  const toleranceSeconds = Number(options.tolerance ?? 300);
  if (Number.isNaN(toleranceSeconds) || toleranceSeconds < 0) {
    throw usageError('--tolerance must be seconds ≥ 0, or Infinity');
  }
  const headers = parseHeaderFile((await readInputFile(options.headers, '--headers')).toString('utf8'));
  const body = await readInputFile(options.body, '--body');
  try {
    const event = await verifyWebhook(new Uint8Array(body), headers, secrets, { toleranceSeconds });
    return { valid: true, event };
  } catch (error) {
    if (!isWebhookVerificationError(error)) throw error;
    const advice =
      error.reason === 'timestamp_out_of_range'
        ? ' (an old capture? add --tolerance Infinity to check only the signature)'
        : '';
    throw new ExitError(EXIT.api, `invalid delivery: ${error.reason}: ${error.message}${advice}`, {
      error: { code: error.reason, message: error.message, request_id: null },
    });
  }
}

export default defineCommand({
  run: verify,
  render: ({ event }, { style }) =>
    `${style.green('✓')} valid signature\n` +
    renderFields(style, [
      ['Event', event.id],
      ['Type', event.type],
      ['Created', event.created_at],
    ]),
});
