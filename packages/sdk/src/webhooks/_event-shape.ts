import type { WebhookEventType } from '../wire/event';

// A signature proves who sent a body, not that it is an event a handler can read: a verified
// event is checked before it is routed: the envelope of spec 6.2, and the data members spec 6.1
// lists for a known type. JSON types only, never values, and extra fields are allowed, so a
// status or a field added by a later Parley version still passes.

type FieldShape = 'string' | 'boolean' | ObjectShape;
interface ObjectShape {
  readonly [field: string]: FieldShape;
}

// Within a message or a connection, only what identifies it and what the handler itself reads
// (a status update's status, for ordering): a field that drifts elsewhere must not make a
// receiver refuse, and so lose, genuine events.
const MESSAGE: ObjectShape = { id: 'string', status: 'string' };
const CONNECTION: ObjectShape = { id: 'string' };

const ENVELOPE: ObjectShape = {
  api_version: 'string',
  created_at: 'string',
  data: {},
  id: 'string',
  livemode: 'boolean',
  type: 'string',
};

// A Map, not an object, since the type is outside input: `toString` is a key of every object.
// Pure: the two entries share one dist chunk, and an app that imports only the client drops it.
const DATA_OF_TYPE = /* @__PURE__ */ new Map<string, ObjectShape>(
  /* @__PURE__ */ Object.entries({
    'message.received': { message: MESSAGE },
    'message.status_updated': { message: MESSAGE },
    'connection.connected': { connection: CONNECTION },
    'connection.disconnected': { connection: CONNECTION },
    'developer.application.created': { application_id: 'string', environment: 'string' },
    'webhook.test': { message: 'string' },
  } satisfies Record<WebhookEventType, ObjectShape>),
);

/**
 * What is wrong with a verified event's shape, e.g. `The event's data.message.status must be a
 * string (got null)`; undefined when it has the envelope every event has and, for a known type,
 * that type's data members. The text names only fields, never a value from the body.
 */
export function eventShapeProblem(event: unknown): string | undefined {
  return (
    problemOf(event, ENVELOPE, '') ??
    problemOf((event as { data: unknown }).data, DATA_OF_TYPE.get((event as { type: string }).type), 'data')
  );
}

function problemOf(value: unknown, shape: FieldShape | undefined, path: string): string | undefined {
  if (shape === undefined) return undefined;
  if (typeof shape === 'string') {
    return typeof value === shape ? undefined : mismatch(path, `a ${shape}`, value);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return mismatch(path, 'an object', value);
  }
  for (const [field, fieldShape] of Object.entries(shape)) {
    // Own fields only: a JSON body has no others, and an inherited one was never sent.
    const fieldValue = Object.hasOwn(value, field) ? (value as Record<string, unknown>)[field] : undefined;
    const problem = problemOf(fieldValue, fieldShape, path ? `${path}.${field}` : field);
    if (problem) return problem;
  }
  return undefined;
}

function mismatch(path: string, expected: string, value: unknown): string {
  const got =
    value === undefined
      ? 'nothing'
      : value === null
        ? 'null'
        : Array.isArray(value)
          ? 'an array'
          : typeof value === 'object'
            ? 'an object'
            : `a ${typeof value}`;
  return `${path ? `The event's ${path}` : 'The event'} must be ${expected} (got ${got})`;
}
