import { randomUUID } from 'node:crypto';
import type { Connection, Message, Template } from '@parley/sdk';
import { bodyFingerprint, idempotencySlot } from '../domain/idempotency';
import { parseSendParams } from '../domain/send-params';
import { findApplication } from './control-operations';
import type { EmulatorCore } from './emulator-core';
import { sendMessage } from './send-message';
import { acceptedView, listConnections, listTemplates } from './v1-operations';

/** A connection with what it can send, as the console lists it. */
export type ConnectionWithTemplates = Connection & { templates: Template[] };

/**
 * `GET /_emulator/applications/{id}/connections`: what `GET /v1/connections` lists for the
 * application (the two sandbox fixtures, or its simulated live numbers), each with its templates.
 */
export function applicationConnections(core: EmulatorCore, applicationId: string): ConnectionWithTemplates[] {
  const application = findApplication(core, applicationId);
  return listConnections(core, { application }).map((connection) => ({
    ...connection,
    templates: listTemplates(core, { application }, connection.id),
  }));
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
