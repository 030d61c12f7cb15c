import { eventId, statusEvent, TEST_SECRET, testEvent, webhookEvent } from '@parley/test-utils';
import { WEBHOOK_EVENT_TYPES, type WebhookEvent } from '../../wire/event';
import { createWebhookHandler } from '../create-webhook-handler';
import type { WebhookHandlerOptions } from '../webhook-handler-options';

/** An event as a plain JSON object, to tamper with. */
export type EventJson = Record<string, unknown>;

const CONNECTION = {
  object: 'connection',
  id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
  status: 'active',
  phone_number: '+15555550100',
  name: 'Sandbox',
  quality_rating: 'GREEN',
  waba_id: '102290129340398',
  livemode: false,
  created_at: '2026-10-14T09:00:00Z',
};

/** A fresh, well-formed event of `type` (a message of its own, so no other event makes it stale). */
export function wellFormed(type: WebhookEvent['type']): EventJson {
  const status = statusEvent('sent', crypto.randomUUID());
  const outbound = (status as Extract<WebhookEvent, { type: 'message.status_updated' }>).data.message;
  const inbound = { direction: 'inbound', to: null, from: '+15550100999', status: 'received' } as const;
  const data = {
    'message.received': {
      message: { ...outbound, ...inbound, type: 'text', text: 'Bonjour', template: null },
    },
    'message.status_updated': { message: outbound },
    'connection.connected': { connection: CONNECTION },
    'connection.disconnected': { connection: { ...CONNECTION, status: 'disconnected' } },
    'developer.application.created': {
      application_id: 'c0ffee00-0000-4000-8000-0000000000a1',
      environment: 'live',
    },
    'webhook.test': testEvent().data,
  }[type];
  return structuredClone(webhookEvent({ id: eventId(), type, data } as WebhookEvent)) as unknown as EventJson;
}

/** The value {@link withField} removes a field for. */
export const GONE = Symbol('gone');

/** `event` with the field at `path` set to `value`, or removed (GONE). */
export function withField(event: EventJson, path: readonly string[], value: unknown): EventJson {
  const parent = path.slice(0, -1).reduce((at, key) => at[key] as EventJson, event);
  if (value === GONE) delete parent[path.at(-1)!];
  else parent[path.at(-1)!] = value;
  return event;
}

/**
 * A handler with a recording handler for every type, `onUnhandled` and `onError`: `calls` lists each
 * call of your code, `handled` the events the type handlers got.
 */
export function recordingReceiver(settings: Partial<WebhookHandlerOptions> = {}) {
  const calls: string[] = [];
  const handled: EventJson[] = [];
  const on = Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      (event: WebhookEvent) => {
        calls.push(`on ${type}`);
        handled.push(event as unknown as EventJson);
      },
    ]),
  );
  const handler = createWebhookHandler({
    secret: TEST_SECRET,
    on,
    onUnhandled: (event) => void calls.push(`onUnhandled ${event.type}`),
    onError: (error) => void calls.push(`onError ${String(error)}`),
    ...settings,
  } as WebhookHandlerOptions);
  return { handler, calls, handled };
}

/** What a test compares of an answer. */
export async function answerOf(response: Response) {
  return {
    status: response.status,
    outcome: response.headers.get('parley-webhook-outcome'),
    type: response.headers.get('content-type'),
    body: await response.text(),
  };
}
