import { randomUUID } from 'node:crypto';
import type { Message } from '@parley/sdk';
import { bodyFingerprint, idempotencySlot } from '../domain/idempotency';
import type { MessageRecord } from '../domain/records';
import { parseSendParams } from '../domain/send-params';
import { findApplication } from './applications';
import type { EmulatorCore } from './emulator-core';
import type { Caller } from './keys';
import { acceptedView } from './messages';
import type { IdempotencyTicket } from './send-idempotency';
import { sendMessage } from './send-message';

const SENDS = ['sends'] as const;

/** What `POST /v1/messages` accepted: a new message, or the one an earlier send with its key made. */
export interface AcceptedSend {
  record: MessageRecord;
  /** True when `record` is the earlier send's (an idempotent replay, which costs no send). */
  replayed: boolean;
}

/**
 * `POST /v1/messages` once the caller, its scope and the JSON body passed (spec 4.2): the
 * Idempotency-Key's replay first, then the `sends` bucket, the send's parameters, and the new
 * message with its idempotency record. `ticket` is the key's hold from
 * `core.idempotency.begin`, taken before the body was read.
 */
export function acceptSend(
  core: EmulatorCore,
  caller: Caller,
  ticket: IdempotencyTicket,
  body: unknown,
): AcceptedSend {
  const fingerprint = bodyFingerprint(body);
  const now = core.nowIn(caller.application.workspace_id);
  const original = core.idempotency.replay(ticket, fingerprint, now);
  if (original) return { record: original, replayed: true };
  const limited = core.rateLimits.refusal(caller.key.id, SENDS, now);
  if (limited) throw limited;
  const params = parseSendParams(body);
  return { record: sendMessage(core, caller, params, { slot: ticket.slot, fingerprint }), replayed: false };
}

/**
 * `POST /_emulator/applications/{id}/messages`: the body of `POST /v1/messages`, sent as the
 * application without a key (the console's Send). Every rule of a send holds (connection,
 * template and variables, live daily cap and 24 h window); no key's rate limit is charged, and
 * each call is a new message (its idempotency slot is its own).
 */
export function sendAsApplication(core: EmulatorCore, applicationId: string, input: unknown): Message {
  const application = findApplication(core, applicationId);
  const params = parseSendParams(input);
  const slot = idempotencySlot(`console:${application.id}`, randomUUID());
  const record = sendMessage(core, { application }, params, { slot, fingerprint: bodyFingerprint(input) });
  return acceptedView(record);
}
