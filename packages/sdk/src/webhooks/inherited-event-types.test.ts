import { eventId, TEST_SECRET } from '@parley/test-utils';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../wire/event';
import { signedPost, signedRequest, useLoopbackServers } from './_test/signed-deliveries';
import { createWebhookHandler } from './create-webhook-handler';

// An event type is outside input: one named like a member of Object.prototype (`toString`,
// `__proto__`, …) must find no handler in `on`, however `on` was built, and be answered as any
// type without a handler is.

const INHERITED = Object.getOwnPropertyNames(Object.prototype);
const serve = useLoopbackServers();

/** The body of a well-formed envelope of `type` around `data`, and its event id. */
function envelopeOf(type: string, data: object = {}): { body: string; id: string } {
  const id = eventId();
  const event = {
    api_version: '2026-10-14',
    created_at: '2026-10-14T09:30:05Z',
    data,
    id,
    livemode: false,
    type,
  };
  return { body: JSON.stringify(event), id };
}

const TEST_DATA = { message: 'This is a test event from Parley.' };

/** A handler with a handler for every real type; `calls` lists every call it made of your code. */
function receiver(withFallback: boolean) {
  const calls: string[] = [];
  const on = Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [type, () => void calls.push(`on ${type}`)]),
  );
  const handler = createWebhookHandler({
    secret: TEST_SECRET,
    on,
    onError: (error) => void calls.push(`onError ${String(error)}`),
    ...(withFallback ? { onUnhandled: (event) => void calls.push(`onUnhandled ${event.type}`) } : {}),
  });
  return { handler, calls };
}

const answerOf = async (response: Response) => [
  response.status,
  response.headers.get('parley-webhook-outcome'),
  await response.text(),
];

describe.each([
  ['without onUnhandled', false, [204, 'unhandled', '']],
  ['with onUnhandled', true, [204, 'processed', '']],
] as const)('an event type named like a member of Object.prototype, %s', (_, withFallback, unknownAnswer) => {
  const unhandledCalls = (types: string[]) =>
    withFallback ? types.map((type) => `onUnhandled ${type}`) : [];

  it(`is answered as an unknown type by the web handler (${INHERITED.length} names)`, async () => {
    const { handler, calls } = receiver(withFallback);
    const answers: unknown[] = [];
    for (const type of ['x.unknown', ...INHERITED]) {
      const { body, id } = envelopeOf(type);
      answers.push([type, ...(await answerOf(await handler(await signedRequest(body, id))))]);
    }
    expect(answers).toEqual(['x.unknown', ...INHERITED].map((type) => [type, ...unknownAnswer]));
    expect(calls).toEqual(unhandledCalls(['x.unknown', ...INHERITED]));
  });

  it('is answered as an unknown type by handler.node() on node:http', async () => {
    const { handler, calls } = receiver(withFallback);
    const url = await serve(handler.node());
    const answers: unknown[] = [];
    for (const type of ['x.unknown', ...INHERITED]) {
      const { body, id } = envelopeOf(type);
      answers.push([type, ...(await answerOf(await signedPost(url, body, id)))]);
    }
    expect(answers).toEqual(['x.unknown', ...INHERITED].map((type) => [type, ...unknownAnswer]));
    expect(calls).toEqual(unhandledCalls(['x.unknown', ...INHERITED]));
  });
});

describe('handlers of `on`', () => {
  it('are only its own: one inherited from a prototype of `on` is not used', async () => {
    const calls: string[] = [];
    const inherited = { 'webhook.test': () => void calls.push('inherited') };
    const handler = createWebhookHandler({ secret: TEST_SECRET, on: Object.create(inherited) });
    const { body, id } = envelopeOf('webhook.test', TEST_DATA);
    expect(await answerOf(await handler(await signedRequest(body, id)))).toEqual([204, 'unhandled', '']);
    expect(calls).toEqual([]);
  });

  it('are looked up at each delivery: one added to `on` after creation is used', async () => {
    const calls: string[] = [];
    const on: Record<string, () => void> = {};
    const handler = createWebhookHandler({ secret: TEST_SECRET, on });
    on['webhook.test'] = () => void calls.push('added');
    const { body, id } = envelopeOf('webhook.test', TEST_DATA);
    expect(await answerOf(await handler(await signedRequest(body, id)))).toEqual([204, 'processed', '']);
    expect(calls).toEqual(['added']);
  });
});
