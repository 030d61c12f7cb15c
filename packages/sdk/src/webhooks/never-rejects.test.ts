import { TEST_SECRET } from '@parley/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES, type WebhookEvent } from '../wire/event';
import {
  answerOf,
  type EventJson,
  GONE,
  recordingReceiver,
  wellFormed,
  withField,
} from './_test/event-bodies';
import { signedRequest } from './_test/signed-deliveries';
import { createWebhookHandler } from './create-webhook-handler';

// The web handler resolves to an answer for any signed body: 204, 400 invalid_payload, or 500
// handler_failed when one of your handlers threw. It never rejects, and your code gets only
// well-formed events.

const INHERITED = Object.getOwnPropertyNames(Object.prototype);
const pathsOf = (value: unknown, path: string[] = []): string[][] =>
  value !== null && typeof value === 'object'
    ? Object.entries(value).flatMap(([key, inner]) => [[...path, key], ...pathsOf(inner, [...path, key])])
    : [];
const anyType = fc.oneof(fc.constantFrom(...WEBHOOK_EVENT_TYPES), fc.constantFrom(...INHERITED), fc.string());

/** A well-formed event with one field (not its id) replaced by any JSON value or removed, or given any type. */
const tampered = fc
  .record({
    event: fc.constantFrom(...WEBHOOK_EVENT_TYPES).map(wellFormed),
    pick: fc.nat(),
    value: fc.oneof(fc.jsonValue(), fc.constant(GONE)),
    type: anyType,
  })
  .map(({ event, pick, value, type }) => {
    const id = event.id as string;
    const paths = [...pathsOf(event), ['type']].filter((path) => path.join('.') !== 'id');
    const path = paths[pick % paths.length]!;
    const changed = withField(event, path, path[0] === 'type' && pick % 2 === 0 ? type : value);
    return { body: JSON.stringify(changed), id };
  });
/** Any JSON (or not JSON at all), signed. */
const anyBody = fc.record({
  body: fc.oneof(
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc.string(),
  ),
  id: fc.constant('evt_00000000000000000000000000000001'),
});
const delivery = fc.oneof(tampered, tampered, anyBody);

describe('the web handler never rejects', () => {
  it('for any signed body: 204, or 400 invalid_payload; your code gets only well-formed events', async () => {
    const { handler, calls, handled } = recordingReceiver({ dedupe: false });
    await fc.assert(
      fc.asyncProperty(delivery, async ({ body, id }) => {
        calls.length = 0;
        handled.length = 0;
        const answer = await answerOf(await handler(await signedRequest(body, id)));
        if (answer.status === 400)
          expect(JSON.parse(answer.body)).toMatchObject({ error: 'invalid_payload' });
        else expect([answer.status, answer.body]).toEqual([204, '']);
        for (const event of handled) expect(wellFormedEnough(event)).toBe(true);
        expect(calls.filter((call) => call.startsWith('onError'))).toEqual([]);
      }),
      { seed: 20_261_014, numRuns: 400 },
    );
  });

  it('for any signed body, with handlers that throw: 204, 400 invalid_payload, or 500 handler_failed once one ran', async () => {
    const ran: string[] = [];
    const fail = (event: WebhookEvent) => {
      ran.push(event.type);
      throw new Error('handler failed');
    };
    const handler = createWebhookHandler({
      secret: TEST_SECRET,
      on: Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type, fail])),
      onUnhandled: fail,
      onError: () => {},
    });
    await fc.assert(
      fc.asyncProperty(delivery, async ({ body, id }) => {
        ran.length = 0;
        const answer = await answerOf(await handler(await signedRequest(body, id)));
        if (answer.status === 500) {
          expect([answer.body, ran.length]).toEqual([JSON.stringify({ error: 'handler_failed' }), 1]);
        } else if (answer.status === 400) {
          expect(JSON.parse(answer.body)).toMatchObject({ error: 'invalid_payload' });
        } else {
          expect([answer.status, ran]).toEqual([204, []]);
        }
      }),
      { seed: 20_261_015, numRuns: 400 },
    );
  });
});

/** What the handler's own logic and a typical handler read, checked independently of _event-shape. */
function wellFormedEnough(event: EventJson): boolean {
  const data = event.data as Record<string, unknown> | null;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  if (event.type !== 'message.status_updated' && event.type !== 'message.received') return true;
  const message = data.message as Record<string, unknown> | null;
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof message.id === 'string' &&
    typeof message.status === 'string'
  );
}
