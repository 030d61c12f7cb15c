import { isClockTime } from '../domain/clock-range';
import { endpointDescriptionProblem } from '../domain/endpoint-description';
import { templateVariablesProblem } from '../domain/template-variables';
import {
  application,
  connection,
  delivery,
  eventRecord,
  eventType,
  key,
  messageRecord,
  rateWindow,
} from './_record-shapes';
import { anyObject, count, fields, finite, flag, listOf, nullable, oneOf, type Shape, text } from './_shape';

// The shape of an export bundle (core/bundle-types.ts), built from the data dir's record shapes so
// a record a bundle carries is read exactly as a snapshot's would be. Only the top level is exact.

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

/** An ISO 8601 UTC instant (`2026-01-02T03:04:05.678Z`) an emulator clock can hold. */
export const instant: Shape = (value) =>
  typeof value === 'string' && ISO_INSTANT.test(value) && isClockTime(Date.parse(value))
    ? undefined
    : ': expected an ISO 8601 UTC time between 1970 and 9999';

// A bundle comes from outside: its description meets the rule of the control API's input.
const endpointDescription: Shape = (value) => {
  const problem = endpointDescriptionProblem(value);
  return problem && `: expected an endpoint description (${problem.reason})`;
};

const clock = fields({ mode: oneOf('real', 'frozen'), now: instant });

const workspace = fields(
  { id: text, name: text, created_at: text, agreement_accepted_at: nullable(text) },
  { clock },
);

const endpoint = fields(
  {
    id: text,
    application_id: text,
    url: text,
    events: listOf(eventType),
    active: flag,
    created_at: text,
    secret: nullable(text),
    previous_secret: nullable(fields({ secret: text, expires_at: finite })),
  },
  {
    chaos: nullable(fields({ seed: finite, random_state: finite, kinds: anyObject, applied: anyObject })),
    description: endpointDescription,
  },
);

/** A delivery whose next attempt, when it has one, is a time the clock can reach. */
const scheduledDelivery: Shape = (value) => {
  const problem = delivery(value);
  if (problem !== undefined) return problem;
  const next = (value as { next_attempt_at: string | null }).next_attempt_at;
  const timing = next === null ? undefined : instant(next);
  return timing === undefined ? undefined : `.next_attempt_at${timing}`;
};

/** A message whose kept variables, from outside, are no more than a send could have given. */
const boundedMessage: Shape = (value) => {
  const problem = messageRecord(value);
  if (problem !== undefined) return problem;
  const variables = (value as { variables?: unknown }).variables;
  const excess = variables === undefined ? undefined : templateVariablesProblem(variables);
  return excess === undefined ? undefined : `.variables${excess}`;
};

const activityItem = fields({
  seq: count,
  at: instant,
  kind: oneOf('request', 'control', 'event', 'message', 'delivery', 'clock', 'reset'),
  application_ids: listOf(text),
});

/** A whole bundle of version 1, every field required (its format and version are checked first). */
export const BUNDLE: Shape = fields(
  {
    format: text,
    version: count,
    emulator_version: text,
    exported_at: instant,
    workspace_id: nullable(text),
    secrets_included: flag,
    clock,
    workspaces: listOf(workspace),
    applications: listOf(application),
    keys: listOf(key),
    connections: listOf(connection),
    endpoints: listOf(endpoint),
    messages: listOf(boundedMessage),
    events: listOf(eventRecord),
    deliveries: listOf(scheduledDelivery),
    pending_jobs: listOf(
      fields({ kind: oneOf('message_status', 'delivery_attempt'), id: text, at: instant }),
    ),
    idempotency: listOf(fields({ key_id: text, idempotency_key: text, record: text })),
    messaging_windows: listOf(fields({ connection_id: text, sender: text, opened_at: finite })),
    daily_sends: listOf(fields({ workspace_id: text, day: text, count })),
    rate_limits: listOf((value) => fields({ key_id: text })(value) ?? rateWindow(value)),
    activity: fields({ last_seq: count, items: listOf(activityItem) }),
  },
  {},
  true,
);
