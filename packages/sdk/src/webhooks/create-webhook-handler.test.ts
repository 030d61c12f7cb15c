import { deliveryRequest, MESSAGE_ID, statusEvent, TEST_SECRET, testEvent } from '@parley/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WebhookEvent } from '../wire/event';
import type { MessageStatus } from '../wire/message';
import { createWebhookHandler } from './create-webhook-handler';
import { signWebhook } from './sign-webhook';
import type { WebhookHandlerOptions } from './webhook-handler-options';

const OLD_SECRET = 'whsec_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp';

/** A handler whose `message.status_updated` and `webhook.test` handlers record what they receive. */
function recordingHandler(settings: Partial<WebhookHandlerOptions> = {}) {
  const handled: WebhookEvent[] = [];
  const record = (event: WebhookEvent) => void handled.push(event);
  const handler = createWebhookHandler({
    secret: TEST_SECRET,
    on: { 'message.status_updated': record, 'webhook.test': record },
    ...settings,
  } as WebhookHandlerOptions);
  return { handler, handled };
}

/** Delivers each event in turn; the answers' statuses. */
async function deliver(handler: (request: Request) => Promise<Response>, ...events: WebhookEvent[]) {
  const statuses: number[] = [];
  for (const event of events) statuses.push((await handler(await deliveryRequest(event))).status);
  return statuses;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createWebhookHandler answers', () => {
  it('204 with no body once the handler of the event type succeeded, with the verified event', async () => {
    const { handler, handled } = recordingHandler();
    const event = testEvent();
    const response = await handler(await deliveryRequest(event));
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(handled).toEqual([event]);
  });

  it('400 with the verification reason as JSON, and runs nothing', async () => {
    const { handler, handled } = recordingHandler();
    const event = testEvent();
    const wrongSecret = await handler(await deliveryRequest(event, `whsec_${'x'.repeat(32)}`));
    const unsigned = await handler(
      new Request('http://127.0.0.1/webhooks/parley', { method: 'POST', body: JSON.stringify(event) }),
    );
    const stale = await handler(
      new Request('http://127.0.0.1/webhooks/parley', {
        method: 'POST',
        body: JSON.stringify(event),
        headers: await signWebhook({
          payload: JSON.stringify(event),
          secret: TEST_SECRET,
          id: event.id,
          timestamp: Math.floor(Date.now() / 1000) - 301,
        }),
      }),
    );
    for (const [response, reason] of [
      [wrongSecret, 'signature_mismatch'],
      [unsigned, 'missing_header'],
      [stale, 'timestamp_out_of_range'],
    ] as const) {
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual({ error: reason });
    }
    expect(handled).toEqual([]);
  });

  it('405 with Allow: POST to any other method, without reading the body', async () => {
    const { handler } = recordingHandler();
    for (const method of ['GET', 'HEAD', 'PUT']) {
      const response = await handler(new Request('http://127.0.0.1/webhooks/parley', { method }));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('honours toleranceSeconds', async () => {
    const { handler } = recordingHandler({ toleranceSeconds: 600 });
    const event = testEvent();
    const body = JSON.stringify(event);
    const timestamp = Math.floor(Date.now() / 1000) - 500;
    const headers = await signWebhook({ payload: body, secret: TEST_SECRET, id: event.id, timestamp });
    const response = await handler(new Request('http://127.0.0.1/', { method: 'POST', body, headers }));
    expect(response.status).toBe(204);
  });

  it('verifies with any of `secrets` during a rotation', async () => {
    const handled: WebhookEvent[] = [];
    const handler = createWebhookHandler({
      secrets: [TEST_SECRET, OLD_SECRET],
      on: { 'webhook.test': (event) => void handled.push(event) },
    });
    const [signedWithOld, signedWithNew, signedWithBoth] = [testEvent(), testEvent(), testEvent()];
    const answers = [
      await handler(await deliveryRequest(signedWithOld, OLD_SECRET)),
      await handler(await deliveryRequest(signedWithNew, TEST_SECRET)),
      await handler(await deliveryRequest(signedWithBoth, [TEST_SECRET, OLD_SECRET])),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([204, 204, 204]);
    expect(handled).toEqual([signedWithOld, signedWithNew, signedWithBoth]);
  });

  it('204 for a type without a handler; onUnhandled, when given, gets it once', async () => {
    const { handler } = recordingHandler({ on: {} });
    expect(await deliver(handler, testEvent())).toEqual([204]);

    const unhandled: WebhookEvent[] = [];
    const withFallback = createWebhookHandler({
      secret: TEST_SECRET,
      on: { 'message.received': () => {} },
      onUnhandled: (event) => void unhandled.push(event),
    });
    const event = testEvent();
    expect(await deliver(withFallback, event, event)).toEqual([204, 204]);
    expect(unhandled).toEqual([event]);
  });
});

describe('a handler that throws', () => {
  it('answers 500 handler_failed, reports the error with its event, and the retry is processed', async () => {
    const failure = new Error('database unavailable');
    const onError = vi.fn();
    let fail = true;
    const handled: string[] = [];
    const handler = createWebhookHandler({
      secret: TEST_SECRET,
      on: {
        'webhook.test': (event) => {
          if (fail) throw failure;
          handled.push(event.id);
        },
      },
      onError,
    });
    const event = testEvent();

    const first = await handler(await deliveryRequest(event));
    expect(first.status).toBe(500);
    expect(await first.json()).toEqual({ error: 'handler_failed' });
    expect(onError).toHaveBeenCalledExactlyOnceWith(failure, event);

    fail = false;
    expect(await deliver(handler, event, event)).toEqual([204, 204]);
    expect(handled).toEqual([event.id]);
  });

  it('is logged with console.error when no onError is given, never swallowed', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new TypeError('bug in the handler');
    const handler = createWebhookHandler({
      secret: TEST_SECRET,
      on: {
        'webhook.test': async () => {
          throw failure;
        },
      },
    });
    const event = testEvent();
    expect(await deliver(handler, event)).toEqual([500]);
    expect(errors).toHaveBeenCalledExactlyOnceWith(
      `Parley webhook webhook.test ${event.id} failed; answered 500, Parley will retry it:`,
      failure,
    );
  });

  it('still logs with console.error when onError itself throws', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new Error('handler');
    const loggingFailure = new Error('logger');
    const handler = createWebhookHandler({
      secret: TEST_SECRET,
      on: {
        'webhook.test': () => {
          throw failure;
        },
      },
      onError: () => {
        throw loggingFailure;
      },
    });
    expect(await deliver(handler, testEvent())).toEqual([500]);
    expect(errors.mock.calls.map((call) => call.at(-1))).toEqual([loggingFailure, failure]);
  });
});

describe('set-up errors answer 500 internal_error and are reported without an event', () => {
  it('a missing secret', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: '', on: {}, onError });
    const response = await handler(await deliveryRequest(testEvent()));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'internal_error' });
    const [error, event] = onError.mock.calls[0]!;
    expect(Object.getPrototypeOf(error)).toBe(TypeError.prototype);
    expect((error as TypeError).message).toBe('verifyWebhook: missing whsec_ secret');
    expect(event).toBeUndefined();
  });

  it('a store that fails: the event is not lost', async () => {
    const onError = vi.fn();
    const storeFailure = new Error('redis down');
    const handled: string[] = [];
    const handler = createWebhookHandler({
      secret: TEST_SECRET,
      on: { 'webhook.test': (event) => void handled.push(event.id) },
      dedupe: { has: async () => Promise.reject(storeFailure), add: () => {} },
      onError,
    });
    const event = testEvent();
    const response = await handler(await deliveryRequest(event));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'internal_error' });
    expect(onError).toHaveBeenCalledExactlyOnceWith(storeFailure, event);
    expect(handled).toEqual([]);
  });
});

describe('an `on` that throws when read (a getter, a Proxy)', () => {
  it('answers 500 internal_error and reports the error with its event, never rejects', async () => {
    const onError = vi.fn();
    const failure = new Error('handlers not loaded');
    const handler = createWebhookHandler({
      secret: TEST_SECRET,
      on: {
        get 'webhook.test'(): never {
          throw failure;
        },
      },
      onError,
    });
    const event = testEvent();
    const response = await handler(await deliveryRequest(event));
    expect([response.status, await response.json()]).toEqual([500, { error: 'internal_error' }]);
    expect(onError).toHaveBeenCalledExactlyOnceWith(failure, event);
  });
});

describe('the Parley-Webhook-Outcome header', () => {
  it('says what was done with each verified delivery, and is absent from refusals', async () => {
    const { handler } = recordingHandler();
    const event = testEvent();
    const outcomes: (string | null)[] = [];
    for (const request of [
      await deliveryRequest(event),
      await deliveryRequest(event),
      await deliveryRequest(statusEvent('read')),
      await deliveryRequest(statusEvent('sent')),
      await deliveryRequest({
        ...event,
        id: `evt_${'1'.repeat(32)}`,
        type: 'developer.application.created',
        data: { application_id: 'c0ffee00-0000-4000-8000-0000000000a1', environment: 'live' },
      }),
      await deliveryRequest(testEvent(), `whsec_${'x'.repeat(32)}`),
    ]) {
      outcomes.push((await handler(request)).headers.get('parley-webhook-outcome'));
    }
    expect(outcomes).toEqual(['processed', 'duplicate', 'processed', 'stale_status', 'unhandled', null]);
  });
});

describe('deduplication by event id', () => {
  it('answers a duplicate 204 without running the handler again', async () => {
    const { handler, handled } = recordingHandler();
    const event = testEvent();
    expect(await deliver(handler, event, event, event)).toEqual([204, 204, 204]);
    expect(handled).toEqual([event]);
  });

  it('runs concurrent deliveries of one event once', async () => {
    const { handler, handled } = recordingHandler();
    const event = testEvent();
    const requests = await Promise.all([deliveryRequest(event), deliveryRequest(event)]);
    const answers = await Promise.all(requests.map((request) => handler(request)));
    expect(answers.map((answer) => answer.status)).toEqual([204, 204]);
    expect(handled).toEqual([event]);
  });

  it('is off with dedupe: false', async () => {
    const { handler, handled } = recordingHandler({ dedupe: false });
    const event = testEvent();
    await deliver(handler, event, event);
    expect(handled).toEqual([event, event]);
  });

  it('uses an async store: checks, then records after success for 24 h', async () => {
    const ids = new Set<string>();
    const calls: unknown[][] = [];
    const { handler } = recordingHandler({
      dedupe: {
        has: async (id) => {
          calls.push(['has', id]);
          return ids.has(id);
        },
        add: async (id, ttlSeconds) => {
          calls.push(['add', id, ttlSeconds]);
          ids.add(id);
        },
      },
    });
    const event = testEvent();
    await deliver(handler, event, event);
    expect(calls).toEqual([
      ['has', event.id],
      ['add', event.id, 86_400],
      ['has', event.id],
    ]);
  });

  it('forgets ids after 24 h (the default store)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { handler, handled } = recordingHandler();
      const event = testEvent();
      await deliver(handler, event);
      vi.setSystemTime(Date.now() + 86_399_000);
      await deliver(handler, event);
      vi.setSystemTime(Date.now() + 86_400_000);
      await deliver(handler, event);
      expect(handled).toEqual([event, event]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('out-of-order status updates', () => {
  const statusesHandled = (handled: WebhookEvent[]) =>
    handled.map((event) => event.type === 'message.status_updated' && event.data.message.status);

  it.each<[MessageStatus[], MessageStatus[]]>([
    [['read', 'delivered'], ['read']],
    [['failed', 'sent'], ['failed']],
    [['failed', 'read'], ['failed']],
    [['delivered', 'delivered'], ['delivered']],
    [
      ['sent', 'delivered', 'read'],
      ['sent', 'delivered', 'read'],
    ],
    [
      ['delivered', 'failed'],
      ['delivered', 'failed'],
    ],
    [
      ['queued', 'read', 'sent', 'failed', 'failed'],
      ['queued', 'read', 'failed'],
    ],
  ])('%j: handles %j, answers 204 to every one', async (arrival, expected) => {
    const { handler, handled } = recordingHandler();
    const statuses = await deliver(handler, ...arrival.map((status) => statusEvent(status)));
    expect(statuses).toEqual(arrival.map(() => 204));
    expect(statusesHandled(handled)).toEqual(expected);
  });

  it('keeps each message apart', async () => {
    const { handler, handled } = recordingHandler();
    await deliver(handler, statusEvent('read', 'message-a'), statusEvent('sent', 'message-b'));
    expect(statusesHandled(handled)).toEqual(['read', 'sent']);
  });

  it('records a status only once its handler succeeded', async () => {
    let failDelivered = true;
    const handled: MessageStatus[] = [];
    const handler = createWebhookHandler({
      secret: TEST_SECRET,
      on: {
        'message.status_updated': ({ data: { message } }) => {
          if (message.status === 'delivered' && failDelivered) throw new Error('busy');
          handled.push(message.status);
        },
      },
      onError: () => {},
    });
    const delivered = statusEvent('delivered');
    expect(await deliver(handler, delivered, statusEvent('sent'))).toEqual([500, 204]);
    failDelivered = false;
    expect(await deliver(handler, delivered)).toEqual([204]);
    expect(handled).toEqual(['sent', 'delivered']);
  });

  it('handles one message’s statuses one at a time: an older one waits, then is dropped', async () => {
    let verifiedCount = 0;
    let deliveredVerified!: () => void;
    const deliveredIsVerified = new Promise<void>((resolve) => {
      deliveredVerified = resolve;
    });
    let sentVerified!: () => void;
    const sentIsVerified = new Promise<void>((resolve) => {
      sentVerified = resolve;
    });
    const handled: MessageStatus[] = [];
    const handleStatus = async ({ data: { message } }: { data: { message: { status: MessageStatus } } }) => {
      if (message.status === 'delivered') {
        // Still running when `sent` has been verified and everything after it (all in memory) has had
        // its turn: without one-at-a-time handling, `sent` would be handled meanwhile.
        await sentIsVerified;
        await new Promise((resolve) => setImmediate(resolve));
      }
      handled.push(message.status);
    };
    const handler = createWebhookHandler({
      secret: TEST_SECRET,
      on: {
        // The handler is looked up right after verification: the first lookup is `delivered`'s, the
        // second `sent`'s.
        get 'message.status_updated'() {
          verifiedCount += 1;
          if (verifiedCount === 1) deliveredVerified();
          if (verifiedCount === 2) sentVerified();
          return handleStatus;
        },
      },
    });
    const [delivered, sent] = await Promise.all([
      deliveryRequest(statusEvent('delivered')),
      deliveryRequest(statusEvent('sent')),
    ]);
    // `sent` goes only once `delivered` was verified: deliveries are queued in the order their
    // verification ends, and two HMAC checks on the thread pool end in either order.
    const deliveredAnswer = handler(delivered);
    await deliveredIsVerified;
    const answers = await Promise.all([deliveredAnswer, handler(sent)]);
    expect(answers.map((answer) => answer.status)).toEqual([204, 204]);
    expect(handled).toEqual(['delivered']);
  });

  it('is off with dropStaleStatuses: false', async () => {
    const { handler, handled } = recordingHandler({ dropStaleStatuses: false });
    await deliver(handler, statusEvent('read'), statusEvent('delivered'));
    expect(statusesHandled(handled)).toEqual(['read', 'delivered']);
  });

  it('uses an async store: reads the message’s status, sets it after success for 24 h', async () => {
    const calls: unknown[][] = [];
    const { handler } = recordingHandler({
      dropStaleStatuses: {
        get: async (messageId) => {
          calls.push(['get', messageId]);
          return 'sent' as const;
        },
        set: async (messageId, status, ttlSeconds) => calls.push(['set', messageId, status, ttlSeconds]),
      },
    });
    await deliver(handler, statusEvent('queued'), statusEvent('delivered'));
    expect(calls).toEqual([
      ['get', MESSAGE_ID],
      ['get', MESSAGE_ID],
      ['set', MESSAGE_ID, 'delivered', 86_400],
    ]);
  });
});
