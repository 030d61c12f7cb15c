import { type Message, SANDBOX_EVENT_TYPES, type SandboxEventType, type WebhookEvent } from '@parley/sdk';
import { Document } from 'yaml';
import { listAll } from '../control-client/list-all';
import type { EmulatorControl } from '../core/control-types';
import { SANDBOX_ACTIVE_CONNECTION_ID } from '../domain/sandbox-fixtures';
import { formatScenarioDuration } from './_scenario-duration';
import { overridesOf, triggeredEventIds } from './_triggered-events';
import { unrecordedNotes } from './_unrecorded-notes';

/** Which application's history {@link recordScenario} turns into a scenario. */
export interface RecordScenarioOptions {
  applicationId: string;
  /** The scenario's name (default `recorded`). */
  name?: string;
}

// The endpoint a recording declares when it expects deliveries (it listens to every event).
const RECORDED_ENDPOINT = 'app';

/**
 * Something that happened at a time: an outbound send, a customer's message, an event made by
 * `POST /v1/sandbox/events`, or the clock moved by an advance.
 */
type Happening = { at: number; order: number; seq?: number | undefined } & (
  | { kind: 'send'; message: Message }
  | { kind: 'customer'; event: WebhookEvent }
  | { kind: 'trigger'; event: WebhookEvent; overrides: Record<string, unknown> }
  | { kind: 'clock' }
);

/**
 * A scenario file (YAML text) that replays an application's history, at the times it happened
 * (from the first): its outbound sends (a template's variables included), its customers' messages
 * (`message.received`, as `customer` steps), the other events `POST /v1/sandbox/events` made (as
 * `trigger` steps) and each clock advance. It then moves the clock to the workspace's time and
 * expects each message's status there and, when the application's endpoints were delivered
 * events, each delivered event the replay makes again at an endpoint of its own. What it saw and
 * cannot replay faithfully (a fault's answered calls, webhook chaos, an endpoint test, history the
 * activity feed no longer holds) it names in comments at the top of the file. Run in a fresh
 * workspace, it passes: the sandbox's outcomes depend on the recipient and the time alone.
 */
export async function recordScenario(
  control: EmulatorControl,
  options: RecordScenarioOptions,
): Promise<string> {
  const applicationId = options.applicationId;
  const application = (await listAll((page) => control.listApplications(page))).find(
    (each) => each.id === applicationId,
  );
  if (!application) throw new Error(`no application ${applicationId}`);
  const live = application.environment === 'live';
  // The workspace's records: a send's variables are kept there alone (never on the wire), and its
  // activity says which events a sandbox call made, which calls a fault answered, when the clock moved.
  const bundle = await control.export({ workspaceId: application.workspace_id });
  const variables = new Map<string, string[]>();
  const accepted = new Map<string, number>();
  for (const record of bundle.messages) {
    if (record.application_id !== applicationId) continue;
    accepted.set(record.message.id, record.accepted_at);
    if (record.variables !== undefined) variables.set(record.message.id, record.variables);
  }
  const activity = bundle.activity.items.filter(
    (item) =>
      item.application_ids.includes(applicationId) ||
      (item.kind === 'clock' && item.workspace_id === application.workspace_id),
  );
  const triggeredIds = triggeredEventIds(activity, applicationId);
  // A send's time to the millisecond (`created_at` has whole seconds) is its record's; an event's,
  // its item in the feed. Where the feed still holds it, an item's place orders what happened at
  // one time (a send's: its acceptance, the first item of it at that time).
  const placed = new Map<string, { at: number; seq: number }>();
  for (const item of activity) {
    const at = Date.parse(item.at);
    const key =
      item.kind === 'message' && accepted.get(item.message.id) === at
        ? `m${item.message.id}`
        : item.kind === 'event'
          ? `e${item.event.id}`
          : '';
    if (key !== '' && !placed.has(key)) placed.set(key, { at, seq: item.seq });
  }
  const when = (key: string, at: number) => placed.get(key) ?? { at, seq: undefined };
  // Lists come newest first: reversed, a stable sort keeps the order within one second.
  const events = (await listAll((page) => control.listEvents({ applicationId, ...page })))
    .reverse()
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  // A synthetic message event stores its message: it is the trigger's, not a send.
  const synthetic = new Set(
    events.flatMap((event) => (triggeredIds.has(event.id) ? [messageOf(event)?.id ?? ''] : [])),
  );
  const messages = (await listAll((page) => control.listMessages({ applicationId, ...page }))).filter(
    (message) => message.direction === 'outbound' && !synthetic.has(message.id),
  );
  const received = events.filter((event) => {
    const { from, text } = customerOf(event);
    return event.type === 'message.received' && from !== '' && text !== '';
  });
  const receivedIds = new Set(received.map((event) => event.id));
  const triggered = events.flatMap((event, index) => {
    if (!triggeredIds.has(event.id) || event.type === 'message.received') return [];
    const type = event.type as SandboxEventType;
    const overrides = SANDBOX_EVENT_TYPES.includes(type) ? overridesOf(type, event) : undefined;
    return overrides === undefined
      ? []
      : [
          {
            kind: 'trigger' as const,
            event,
            overrides,
            ...when(`e${event.id}`, Date.parse(event.created_at)),
            order: index,
          },
        ];
  });
  const now = Date.parse((await control.getWorkspaceClock(application.workspace_id)).now);
  const acted: Happening[] = [
    ...messages.map((message, index) => ({
      kind: 'send' as const,
      message,
      ...when(`m${message.id}`, accepted.get(message.id) ?? Date.parse(message.created_at)),
      order: -index,
    })),
    // Events in their order (a customer's and a triggered one within one second).
    ...events.flatMap((event, index) =>
      receivedIds.has(event.id)
        ? [
            {
              kind: 'customer' as const,
              event,
              ...when(`e${event.id}`, Date.parse(event.created_at)),
              order: index,
            },
          ]
        : [],
    ),
    ...triggered,
  ];
  // A reduce, not Math.min(...): a history of many sends would overflow the call's arguments.
  const start =
    acted.length === 0 ? now : acted.reduce((earliest, each) => Math.min(earliest, each.at), Infinity);
  // Each advance the clock made from the start on is kept: a step of its own, as it was moved.
  const advances = activity.flatMap((item) =>
    item.kind === 'clock' && Date.parse(item.now) > start && Date.parse(item.now) <= now
      ? [{ kind: 'clock' as const, at: Date.parse(item.now), order: 0, seq: item.seq }]
      : [],
  );
  const happenings = [...acted, ...advances].sort(
    (a, b) =>
      a.at - b.at ||
      (a.seq !== undefined && b.seq !== undefined
        ? a.seq - b.seq
        : rank(a) - rank(b) || (a.kind === b.kind ? a.order - b.order : 0)),
  );
  const steps: Record<string, unknown>[] = [];
  let cursor = start;
  const names = new Map<string, string>();
  const statuses: Record<string, unknown>[] = [];
  for (const happening of happenings) {
    if (happening.at > cursor) steps.push({ advance: formatScenarioDuration(happening.at - cursor) });
    cursor = Math.max(cursor, happening.at);
    if (happening.kind === 'clock') continue;
    if (happening.kind === 'customer') {
      const { from, text } = customerOf(happening.event);
      steps.push({ customer: { from, text } });
      continue;
    }
    if (happening.kind === 'trigger') {
      steps.push({ trigger: { type: happening.event.type, overrides: happening.overrides } });
      continue;
    }
    const name = `message_${names.size + 1}`;
    names.set(happening.message.id, name);
    steps.push({
      send: { name, body: bodyOf(happening.message, live, variables.get(happening.message.id)) },
    });
    const { status, error } = happening.message;
    statuses.push({
      expect_status: {
        message: name,
        status,
        ...(status === 'failed' && error ? { error: error.code } : {}),
      },
    });
  }
  if (now > cursor) steps.push({ advance: formatScenarioDuration(now - cursor) });
  steps.push(...statuses);
  const overrides = new Map(triggered.map((each) => [each.event.id, each.overrides]));
  const deliveries = await deliveredExpectations(control, applicationId, events, names, overrides);
  steps.push(...deliveries);
  if (steps.length === 0) steps.push({ advance: '1ms' });
  const document = new Document({
    version: 1,
    name: options.name ?? 'recorded',
    start: new Date(start).toISOString(),
    ...(live ? { application: 'live' } : {}),
    ...(deliveries.length === 0 ? {} : { endpoints: { [RECORDED_ENDPOINT]: {} } }),
    steps,
  });
  const notes = await unrecordedNotes(control, {
    applicationId,
    start,
    replaysAnything: acted.length > 0,
    bundle,
    activity,
    events,
    replayed: new Set([...received, ...triggered.map((each) => each.event)].map((event) => event.id)),
    names,
  });
  if (notes.length > 0) {
    document.commentBefore = [
      ' Seen in the emulator and not recorded (the scenario language cannot replay it faithfully):',
      ...notes.map((note) => ` - ${note}`),
    ].join('\n');
  }
  return document.toString();
}

// At one time, when the feed no longer says which came first: a customer's message or a triggered
// event before a send, and a clock advance before what happened at the time it reached.
function rank(happening: Happening): number {
  return happening.kind === 'clock' ? 0 : happening.kind === 'send' ? 2 : 1;
}

// Only what the replay makes again, exactly: a customer's message (its sender and text), a
// triggered event (the fields it was made with) and a recorded send's status updates.
async function deliveredExpectations(
  control: EmulatorControl,
  applicationId: string,
  events: WebhookEvent[],
  names: Map<string, string>,
  triggered: ReadonlyMap<string, Record<string, unknown>>,
): Promise<Record<string, unknown>[]> {
  const deliveries = await listAll((page) => control.listDeliveries({ applicationId, ...page }));
  const delivered = new Set(
    deliveries.filter((delivery) => delivery.status === 'delivered').map((delivery) => delivery.event_id),
  );
  const expectations: Record<string, unknown>[] = [];
  for (const event of events) {
    if (!delivered.has(event.id)) continue;
    const overrides = triggered.get(event.id);
    if (overrides !== undefined) {
      expectations.push({
        expect_delivery: { endpoint: RECORDED_ENDPOINT, type: event.type, fields: overrides },
      });
    } else if (event.type === 'message.received') {
      const { from, text } = customerOf(event);
      expectations.push({
        expect_delivery: {
          endpoint: RECORDED_ENDPOINT,
          type: event.type,
          fields: { 'data.message.from': from, 'data.message.text': text },
        },
      });
    } else if (event.type === 'message.status_updated') {
      const message = messageOf(event);
      const name = message === undefined ? undefined : names.get(message.id);
      if (name === undefined || message === undefined) continue;
      expectations.push({
        expect_delivery: {
          endpoint: RECORDED_ENDPOINT,
          type: event.type,
          message: name,
          fields: { 'data.message.status': message.status },
        },
      });
    }
  }
  return expectations;
}

function messageOf(event: WebhookEvent): Message | undefined {
  const data = event.data as { message?: Message } | undefined;
  return data?.message;
}

function customerOf(event: WebhookEvent): { from: string; text: string } {
  const message = messageOf(event);
  return { from: message?.from ?? '', text: message?.text ?? '' };
}

// A live replay has a connection of its own, the default of its sends. A template's variables
// are the send's, kept by the emulator beside the message (the wire's message has none).
function bodyOf(message: Message, live: boolean, variables: string[] | undefined): Record<string, unknown> {
  return {
    type: message.type,
    ...(live || message.connection_id === SANDBOX_ACTIVE_CONNECTION_ID
      ? {}
      : { connection_id: message.connection_id }),
    to: message.to,
    ...(message.template
      ? { template: variables === undefined ? message.template : { ...message.template, variables } }
      : {}),
    ...(message.text === null ? {} : { text: message.text }),
    ...(message.client_reference === null ? {} : { client_reference: message.client_reference }),
  };
}
