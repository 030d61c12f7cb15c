import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { describe, expectTypeOf, it } from 'vitest';
import type { Connection } from '../wire/connection';
import type {
  ConnectionConnectedEvent,
  MessageStatusUpdatedEvent,
  WebhookEvent,
  WebhookTestEvent,
} from '../wire/event';
import type { Message } from '../wire/message';
import { createWebhookHandler } from './create-webhook-handler';
import type { WebhookEventHandlers } from './webhook-handler-options';

const secret = 'whsec_x';

describe('createWebhookHandler types', () => {
  it('gives each handler its own event type, narrowed by the key', () => {
    createWebhookHandler({
      secret,
      on: {
        'message.status_updated': (event) => {
          expectTypeOf(event).toEqualTypeOf<MessageStatusUpdatedEvent>();
          expectTypeOf(event.data.message).toEqualTypeOf<Message>();
        },
        'connection.connected': async (event) => {
          expectTypeOf(event).toEqualTypeOf<ConnectionConnectedEvent>();
          expectTypeOf(event.data.connection).toEqualTypeOf<Connection>();
        },
        'webhook.test': (event) => {
          expectTypeOf(event).toEqualTypeOf<WebhookTestEvent>();
          expectTypeOf(event.data.message).toEqualTypeOf<string>();
          // @ts-expect-error a test event carries no connection
          event.data.connection;
        },
      },
      onUnhandled: (event) => expectTypeOf(event).toEqualTypeOf<WebhookEvent>(),
      onError: (error, event) => {
        expectTypeOf(error).toBeUnknown();
        expectTypeOf(event).toEqualTypeOf<WebhookEvent | undefined>();
      },
    });
  });

  it('refuses unknown event types and mismatched handlers', () => {
    createWebhookHandler({
      secret,
      // @ts-expect-error not an event type
      on: { 'message.sent': () => {} },
    });
    const wrong: WebhookEventHandlers = {
      // @ts-expect-error a status handler does not take a connection event
      'message.status_updated': (_event: ConnectionConnectedEvent) => {},
    };
    expectTypeOf(wrong).toEqualTypeOf<WebhookEventHandlers>();
  });

  it('takes exactly one of secret and secrets', () => {
    createWebhookHandler({ secret: ['whsec_new', 'whsec_old'], on: {} });
    createWebhookHandler({ secrets: ['whsec_new', 'whsec_old'], on: {} });
    // @ts-expect-error neither
    createWebhookHandler({ on: {} });
    // @ts-expect-error both
    createWebhookHandler({ secret, secrets: [secret], on: {} });
  });

  it('is a web-standard handler whose node() fits node:http and Express', () => {
    const handler = createWebhookHandler({ secret, on: {} });
    expectTypeOf(handler).toBeCallableWith(new Request('http://127.0.0.1/'));
    expectTypeOf(handler).returns.toEqualTypeOf<Promise<Response>>();
    expectTypeOf(handler.node()).toExtend<RequestListener<typeof IncomingMessage, typeof ServerResponse>>();
    expectTypeOf(handler.node()).toExtend<RequestHandler>();
  });
});
