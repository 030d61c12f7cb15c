import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../wire/event';
import { answerOf, GONE, recordingReceiver, wellFormed, withField } from './_test/event-bodies';
import { signedPost, signedRequest, useLoopbackServers } from './_test/signed-deliveries';

// A signed event is trusted to come from Parley, not to be well-formed: one without the documented
// shape is answered 400 invalid_payload with what is wrong, and never reaches your code, in both
// handler forms (before, a status update without data made the web handler reject, and
// `http.createServer(handler.node())` exit on the unhandled rejection).

const serve = useLoopbackServers();
const STATUS = 'message.status_updated';
const RECEIVED = 'message.received';
const TEST = 'webhook.test';

/** Event type, the field changed (dotted), its value (GONE: removed), and what the refusal says of it. */
const MALFORMED: [WebhookEventType | 'x.future', string, unknown, string][] = [
  [STATUS, 'data', GONE, 'must be an object (got nothing)'],
  [STATUS, 'data', null, 'must be an object (got null)'],
  [RECEIVED, 'data', [], 'must be an object (got an array)'],
  [TEST, 'data', 'x', 'must be an object (got a string)'],
  ['x.future', 'data', [{}], 'must be an object (got an array)'],
  [STATUS, 'data.message', GONE, 'must be an object (got nothing)'],
  [STATUS, 'data.message', [], 'must be an object (got an array)'],
  [STATUS, 'data.message.id', 7, 'must be a string (got a number)'],
  [STATUS, 'data.message.id', GONE, 'must be a string (got nothing)'],
  [STATUS, 'data.message.status', null, 'must be a string (got null)'],
  [STATUS, 'data.message.status', { toString: 'read' }, 'must be a string (got an object)'],
  [RECEIVED, 'data.message', 'Bonjour', 'must be an object (got a string)'],
  [RECEIVED, 'data.message.status', false, 'must be a string (got a boolean)'],
  ['connection.connected', 'data.connection', GONE, 'must be an object (got nothing)'],
  ['connection.disconnected', 'data.connection.id', null, 'must be a string (got null)'],
  ['developer.application.created', 'data.application_id', GONE, 'must be a string (got nothing)'],
  ['developer.application.created', 'data.environment', 1, 'must be a string (got a number)'],
  [TEST, 'data.message', {}, 'must be a string (got an object)'],
  [TEST, 'api_version', GONE, 'must be a string (got nothing)'],
  [TEST, 'created_at', 0, 'must be a string (got a number)'],
  [STATUS, 'livemode', 'false', 'must be a boolean (got a string)'],
  [STATUS, 'livemode', null, 'must be a boolean (got null)'],
];

/** Each malformed case as a body to sign for its event id, with the answer it deserves. */
function malformedCases() {
  return MALFORMED.map(([type, path, value, problem]) => {
    const event = withField(wellFormed(type === 'x.future' ? TEST : type), ['type'], type);
    const message = `The event's ${path} ${problem}`;
    return {
      path,
      id: event.id as string,
      body: JSON.stringify(withField(event, path.split('.'), value)),
      message,
    };
  });
}

const refusal = (message: string) => ({
  status: 400,
  outcome: null,
  type: 'application/json',
  body: JSON.stringify({ error: 'invalid_payload', message }),
});

describe('a signed event without the documented shape', () => {
  it(`is answered 400 invalid_payload naming the field, and runs nothing: web handler (${MALFORMED.length} cases)`, async () => {
    const { handler, calls } = recordingReceiver();
    const answers: unknown[] = [];
    for (const { path, id, body } of malformedCases()) {
      answers.push([path, await answerOf(await handler(await signedRequest(body, id)))]);
    }
    expect(answers).toEqual(malformedCases().map(({ path, message }) => [path, refusal(message)]));
    expect(calls).toEqual([]);
  });

  it('is answered 400 invalid_payload naming the field, and runs nothing: handler.node() on node:http', async () => {
    const { handler, calls } = recordingReceiver();
    const url = await serve(handler.node());
    const answers: unknown[] = [];
    for (const { path, id, body } of malformedCases()) {
      answers.push([path, await answerOf(await signedPost(url, body, id))]);
    }
    expect(answers).toEqual(malformedCases().map(({ path, message }) => [path, refusal(message)]));
    expect(calls).toEqual([]);
  });

  it('is refused again when re-sent: it was never recorded as processed', async () => {
    const { handler, calls } = recordingReceiver();
    const [{ id, body, message }] = malformedCases() as [ReturnType<typeof malformedCases>[0]];
    const answers = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      answers.push(await answerOf(await handler(await signedRequest(body, id))));
    }
    expect(answers).toEqual([refusal(message), refusal(message)]);
    expect(calls).toEqual([]);
  });
});

describe('a signed event with the documented shape', () => {
  it('of each type is processed, also with only what is checked, or with fields Parley may add', async () => {
    const { handler, calls } = recordingReceiver();
    const events = [
      ...WEBHOOK_EVENT_TYPES.map(wellFormed),
      withField(wellFormed(STATUS), ['data', 'message'], { id: crypto.randomUUID(), status: 'sent' }),
      withField(wellFormed('connection.connected'), ['data', 'connection'], { id: 'c' }),
      withField(wellFormed(RECEIVED), ['data', 'message', 'text'], { unexpected: true }),
      withField(wellFormed(STATUS), ['data', 'message', 'status'], 'bounced'),
      withField(wellFormed(TEST), ['data', 'added'], { nested: [[[]]] }),
      withField(wellFormed(TEST), ['added'], null),
    ];
    const statuses = [];
    for (const event of events) {
      const request = await signedRequest(JSON.stringify(event), event.id as string);
      statuses.push((await handler(request)).status);
    }
    expect(statuses).toEqual(events.map(() => 204));
    expect(calls).toEqual(events.map((event) => `on ${event.type}`));
  });

  it('of an unknown type needs only the envelope: any data object', async () => {
    const { handler, calls } = recordingReceiver({ onUnhandled: undefined });
    const event = withField(withField(wellFormed(TEST), ['type'], 'x.future'), ['data'], { any: [null] });
    const answer = await answerOf(
      await handler(await signedRequest(JSON.stringify(event), event.id as string)),
    );
    expect(answer).toEqual({ status: 204, outcome: 'unhandled', type: null, body: '' });
    expect(calls).toEqual([]);
  });
});
