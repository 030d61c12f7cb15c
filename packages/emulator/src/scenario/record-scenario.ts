import type { Message, WebhookEvent } from '@parley/sdk';
import { stringify } from 'yaml';
import { listAll } from '../control-client/list-all';
import type { EmulatorControl } from '../core/control-types';
import { SANDBOX_ACTIVE_CONNECTION_ID } from '../domain/sandbox-fixtures';
import { formatScenarioDuration } from './_scenario-duration';

/** Which application's history {@link recordScenario} turns into a scenario. */
export interface RecordScenarioOptions {
  applicationId: string;
  /** The scenario's name (default `recorded`). */
  name?: string;
}

// The endpoint a recording declares when it expects deliveries (it listens to every event).
const RECORDED_ENDPOINT = 'app';

/** Something that happened at a time: an outbound send, or a customer's message. */
type Happening = { at: number; order: number } & (
  | { kind: 'send'; message: Message }
  | { kind: 'customer'; event: WebhookEvent }
);

/**
 * A scenario file (YAML text) that replays an application's history, at the times it happened
 * (from the first): its outbound sends and its customers' messages (`message.received`, as
 * `customer` steps). It then moves the clock to the workspace's time and expects each message's
 * status there and, when the application's endpoints were delivered events, each delivered event
 * the replay makes again (a customer's message, a recorded send's status update) at an endpoint of
 * its own. Run in a fresh workspace, it passes: the sandbox's outcomes depend on the recipient and
 * the time alone.
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
  const messages = (await listAll((page) => control.listMessages({ applicationId, ...page }))).filter(
    (message) => message.direction === 'outbound',
  );
  // Lists come newest first: reversed, a stable sort keeps the order within one second.
  const events = (await listAll((page) => control.listEvents({ applicationId, ...page })))
    .reverse()
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  const received = events.filter((event) => {
    const { from, text } = customerOf(event);
    return event.type === 'message.received' && from !== '' && text !== '';
  });
  const happenings: Happening[] = [
    ...messages.map((message, index) => ({
      kind: 'send' as const,
      message,
      at: Date.parse(message.created_at),
      order: -index,
    })),
    ...received.map((event, index) => ({
      kind: 'customer' as const,
      event,
      at: Date.parse(event.created_at),
      order: index,
    })),
  ].sort((a, b) => a.at - b.at || (a.kind === b.kind ? a.order - b.order : a.kind === 'customer' ? -1 : 1));
  const now = Date.parse((await control.getWorkspaceClock(application.workspace_id)).now);
  const start = happenings.length === 0 ? now : happenings[0]!.at;
  const steps: Record<string, unknown>[] = [];
  let cursor = start;
  const names = new Map<string, string>();
  const statuses: Record<string, unknown>[] = [];
  for (const happening of happenings) {
    if (happening.at > cursor) steps.push({ advance: formatScenarioDuration(happening.at - cursor) });
    cursor = Math.max(cursor, happening.at);
    if (happening.kind === 'customer') {
      const { from, text } = customerOf(happening.event);
      steps.push({ customer: { from, text } });
      continue;
    }
    const name = `message_${names.size + 1}`;
    names.set(happening.message.id, name);
    steps.push({ send: { name, body: bodyOf(happening.message, live) } });
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
  const deliveries = await deliveredExpectations(control, applicationId, events, names);
  steps.push(...deliveries);
  if (steps.length === 0) steps.push({ advance: '1ms' });
  return stringify({
    version: 1,
    name: options.name ?? 'recorded',
    start: new Date(start).toISOString(),
    ...(live ? { application: 'live' } : {}),
    ...(deliveries.length === 0 ? {} : { endpoints: { [RECORDED_ENDPOINT]: {} } }),
    steps,
  });
}

// Only what the replay makes again, exactly: a customer's message (its sender and text) and a
// recorded send's status updates. Other events (triggered ones, tests) are not replayed.
async function deliveredExpectations(
  control: EmulatorControl,
  applicationId: string,
  events: WebhookEvent[],
  names: Map<string, string>,
): Promise<Record<string, unknown>[]> {
  const deliveries = await listAll((page) => control.listDeliveries({ applicationId, ...page }));
  const delivered = new Set(
    deliveries.filter((delivery) => delivery.status === 'delivered').map((delivery) => delivery.event_id),
  );
  const expectations: Record<string, unknown>[] = [];
  for (const event of events) {
    if (!delivered.has(event.id)) continue;
    if (event.type === 'message.received') {
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

// A live replay has a connection of its own, the default of its sends.
function bodyOf(message: Message, live: boolean): Record<string, unknown> {
  return {
    type: message.type,
    ...(live || message.connection_id === SANDBOX_ACTIVE_CONNECTION_ID
      ? {}
      : { connection_id: message.connection_id }),
    to: message.to,
    ...(message.template ? { template: message.template } : {}),
    ...(message.text === null ? {} : { text: message.text }),
    ...(message.client_reference === null ? {} : { client_reference: message.client_reference }),
  };
}
