import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@parley/sdk';
import { endpointDescriptionProblem } from '../domain/endpoint-description';
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

// `null` means none: on create the same as absent, on update it removes the description.
function parseDescription(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return value;
  const problem = endpointDescriptionProblem(value);
  if (problem) return invalid('description', problem.reason, problem.message);
  return value as string;
}

/**
 * The fields of `POST /_emulator/applications/{id}/endpoints`; the URL is checked by the policy.
 * `secret` is optional: one is generated when absent. `description` is optional too.
 */
export function parseCreateEndpointInput(input: unknown): {
  url: unknown;
  events: WebhookEventType[];
  active: boolean;
  secret: string | undefined;
  description: string | undefined;
} {
  const body = asObject(input);
  return {
    url: body.url,
    events: parseEvents(body.events),
    active: parseActive(body.active) ?? true,
    secret: parseSecret(body.secret),
    description: parseDescription(body.description) ?? undefined,
  };
}

/** What `PATCH /_emulator/endpoints/{id}` changes; `description: null` removes it. */
export interface EndpointUpdate {
  events?: WebhookEventType[];
  active?: boolean;
  description?: string | null;
}

/** The fields of `PATCH /_emulator/endpoints/{id}`: `active`, `events` and `description`, all optional. */
export function parseUpdateEndpointInput(input: unknown): EndpointUpdate {
  const body = asObject(input);
  if (body.url !== undefined) {
    invalid('url', 'immutable', 'url cannot be changed: create a new endpoint (it gets its own secret).');
  }
  const update: EndpointUpdate = {};
  if (body.events !== undefined) update.events = parseEvents(body.events);
  const active = parseActive(body.active);
  if (active !== undefined) update.active = active;
  const description = parseDescription(body.description);
  if (description !== undefined) update.description = description;
  return update;
}
