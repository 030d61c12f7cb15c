import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@parley/sdk';
import { asObject as asObjectOrRefuse, invalid } from '../domain/input-checks';
import { SIGNING_SECRET_PATTERN } from '../domain/signing-secret';

// Its reason is `not_an_object` (webhook chaos says the same), where the other inputs say `invalid_type`.
const asObject = (input: unknown) => asObjectOrRefuse(input, 'not_an_object');

function parseEvents(value: unknown): WebhookEventType[] {
  if (!Array.isArray(value) || value.length === 0) {
    return invalid(
      'events',
      'required',
      `events must be a non-empty array of: ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
    );
  }
  for (const type of value) {
    if (!(WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(type)) {
      invalid(
        'events',
        'unknown_event_type',
        `Unknown event type ${JSON.stringify(type)}; expected one of: ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
      );
    }
  }
  return [...new Set(value as WebhookEventType[])];
}

function parseActive(value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') return invalid('active', 'not_a_boolean', 'active must be true or false.');
  return value;
}

// A chosen secret lets a receiver keep its PARLEY_WEBHOOK_SECRET across endpoints (`parley listen`).
function parseSecret(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !SIGNING_SECRET_PATTERN.test(value)) {
    return invalid('secret', 'invalid_format', 'secret must be whsec_ followed by 32 letters or digits.');
  }
  return value;
}

/**
 * The fields of `POST /_emulator/applications/{id}/endpoints`; the URL is checked by the policy.
 * `secret` is optional: one is generated when absent.
 */
export function parseCreateEndpointInput(input: unknown): {
  url: unknown;
  events: WebhookEventType[];
  active: boolean;
  secret: string | undefined;
} {
  const body = asObject(input);
  return {
    url: body.url,
    events: parseEvents(body.events),
    active: parseActive(body.active) ?? true,
    secret: parseSecret(body.secret),
  };
}

/** The fields of `PATCH /_emulator/endpoints/{id}`: `active` and `events`, both optional. */
export function parseUpdateEndpointInput(input: unknown): { events?: WebhookEventType[]; active?: boolean } {
  const body = asObject(input);
  if (body.url !== undefined) {
    invalid('url', 'immutable', 'url cannot be changed: create a new endpoint (it gets its own secret).');
  }
  const update: { events?: WebhookEventType[]; active?: boolean } = {};
  if (body.events !== undefined) update.events = parseEvents(body.events);
  const active = parseActive(body.active);
  if (active !== undefined) update.active = active;
  return update;
}
