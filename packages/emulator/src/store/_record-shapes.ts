import { WEBHOOK_EVENT_TYPES } from '@parley/sdk';
import { CHAOS_KINDS } from '../domain/webhook-chaos';
import {
  anyObject,
  count,
  dictionaryOf,
  fields,
  finite,
  flag,
  listOf,
  nullable,
  oneOf,
  type Shape,
  text,
} from './_shape';

// One shape per stored record kind (domain/records.ts, webhook-state.ts): what the emulator reads
// of a record must be there with its type, so a damaged data dir is refused at start, naming the
// place, instead of failing later with a TypeError. Records may carry fields of a newer version.

const workspace = fields(
  { id: text, name: text, created_at: text, agreement_accepted_at: nullable(text) },
  { clock: fields({ mode: oneOf('real', 'frozen'), offset_ms: finite, frozen_at: finite }) },
);

/** The shape of one stored record of this kind (also read by `_bundle-shape.ts`). */
export const application = fields({
  id: text,
  workspace_id: text,
  name: text,
  environment: oneOf('sandbox', 'live'),
  created_at: text,
});

/** The shape of one stored record of this kind (also read by `_bundle-shape.ts`). */
export const key = fields({
  id: text,
  application_id: text,
  hash: text,
  prefix: text,
  scopes: listOf(text),
  created_at: text,
});

const template = fields({
  object: oneOf('template'),
  name: text,
  language: text,
  category: text,
  variable_count: count,
  body: text,
});

/** The shape of one stored record of this kind (also read by `_bundle-shape.ts`). */
export const connection = fields(
  {
    object: oneOf('connection'),
    id: text,
    status: oneOf('active', 'disconnected'),
    phone_number: text,
    name: text,
    quality_rating: text,
    waba_id: text,
    livemode: flag,
    created_at: text,
    application_id: text,
  },
  { templates: listOf(template) },
);

const message = fields({
  id: text,
  object: oneOf('message'),
  direction: oneOf('outbound', 'inbound'),
  connection_id: text,
  to: nullable(text),
  from: nullable(text),
  type: oneOf('template', 'text'),
  text: nullable(text),
  template: nullable(fields({ name: text, language: text })),
  status: oneOf('queued', 'sent', 'delivered', 'read', 'failed', 'received'),
  error: nullable(fields({ code: text, message: text })),
  client_reference: nullable(text),
  created_at: text,
  updated_at: text,
  livemode: flag,
});

/** The shape of one stored record of this kind (also read by `_bundle-shape.ts`). */
export const messageRecord = fields(
  {
    message,
    application_id: text,
    workspace_id: text,
    accepted_at: finite,
    announced: count,
  },
  // Absent from records written before a send's variables were kept (issue 26).
  { variables: listOf(text) },
);

/** A webhook event type. */
export const eventType = oneOf(...WEBHOOK_EVENT_TYPES);
const chaosKind = oneOf(...CHAOS_KINDS);

/** The shape of one stored record of this kind (also read by `_bundle-shape.ts`). */
export const eventRecord = fields({
  event: fields({
    id: text,
    type: eventType,
    api_version: text,
    created_at: text,
    livemode: flag,
    data: anyObject,
  }),
  application_ids: listOf(text),
});

/** The shape of one stored record of this kind (also read by `_bundle-shape.ts`). */
export const endpoint = fields(
  {
    id: text,
    application_id: text,
    url: text,
    events: listOf(eventType),
    active: flag,
    created_at: text,
    secret: text,
    previous_secret: nullable(fields({ secret: text, expires_at: finite })),
  },
  {
    chaos: nullable(fields({ seed: finite, random_state: finite, kinds: anyObject, applied: anyObject })),
    description: text,
  },
);

const attempt = fields(
  { at: text, status_code: nullable(count), error: nullable(text), duration_ms: finite },
  { chaos: chaosKind },
);

/** The shape of one stored record of this kind (also read by `_bundle-shape.ts`). */
export const delivery = fields(
  {
    id: text,
    event_id: text,
    event_type: eventType,
    endpoint_id: text,
    application_id: text,
    status: oneOf('pending', 'delivered', 'failed'),
    attempts: listOf(attempt),
    next_attempt_at: nullable(text),
    created_at: text,
    body: text,
  },
  { chaos: listOf(chaosKind) },
);

/** The shape of one stored record of this kind (also read by `_bundle-shape.ts`). */
export const rateWindow = fields({
  start: finite,
  used: fields({ requests: count, sends: count, templates: count }),
});

/** The shape of a record of each collection a journal line may change (`JournalEntry.c`). */
export const JOURNALED_RECORD: ReadonlyMap<string, Shape> = new Map<string, Shape>([
  ['messages', messageRecord],
  ['idempotency', text],
  ['deliveries', delivery],
  ['daily_sends', fields({ day: text, count })],
  ['windows', finite],
  ['applications', application],
  ['connections', connection],
]);

const journalEntry: Shape = (value) => {
  const base = fields({ c: oneOf(...JOURNALED_RECORD.keys()), id: text }, { v: anyOrNothing }, true)(value);
  if (base !== undefined) return base;
  const entry = value as { c: string; v?: unknown };
  if (entry.v === undefined) return undefined;
  const problem = JOURNALED_RECORD.get(entry.c)!(entry.v);
  return problem === undefined ? undefined : `.v${problem}`;
};

function anyOrNothing(): undefined {
  return undefined;
}

/** One journal line: the array of entries `Persistence.journal` was given. */
export const JOURNAL_LINE: Shape = listOf(journalEntry);

/** `EmulatorState` as a snapshot holds it; a collection missing from an older snapshot is empty. */
const emulatorState = fields(
  { version: oneOf(1) },
  {
    workspaces: dictionaryOf(workspace),
    applications: dictionaryOf(application),
    keys: dictionaryOf(key),
    connections: dictionaryOf(connection),
    messages: dictionaryOf(messageRecord),
    idempotency: dictionaryOf(text),
    windows: dictionaryOf(finite),
    daily_sends: dictionaryOf(fields({ day: text, count })),
    rate_limits: dictionaryOf(rateWindow),
    events: listOf(eventRecord),
    webhooks: fields({}, { endpoints: dictionaryOf(endpoint), deliveries: dictionaryOf(delivery) }),
  },
);

/** A whole snapshot file (`SnapshotFile`, plus its checksum when written by this version). */
export const SNAPSHOT_FILE: Shape = fields(
  {
    format: oneOf('parley-emulator-state'),
    version: oneOf(1),
    journal_generation: count,
    state: emulatorState,
    clock: fields({ mode: oneOf('real', 'frozen'), offsetMs: finite, frozenAt: finite }),
  },
  { sha256: text },
  true,
);
