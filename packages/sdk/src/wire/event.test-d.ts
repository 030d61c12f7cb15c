import { describe, expectTypeOf, it } from 'vitest';
import { verifyWebhook } from '../webhooks/verify-webhook';
import type { Environment } from './common';
import type { Connection } from './connection';
import type { SandboxEventType, WebhookEvent, WebhookEventType } from './event';
import type { Message } from './message';

describe('WebhookEvent union', () => {
  it('narrows data by type', async () => {
    const event = await verifyWebhook('', {}, 'whsec_x');
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    switch (event.type) {
      case 'message.received':
      case 'message.status_updated':
        expectTypeOf(event.data.message).toEqualTypeOf<Message>();
        break;
      case 'connection.connected':
      case 'connection.disconnected':
        expectTypeOf(event.data.connection).toEqualTypeOf<Connection>();
        break;
      case 'developer.application.created':
        expectTypeOf(event.data.environment).toEqualTypeOf<Environment>();
        // @ts-expect-error this event carries no message
        event.data.message;
        break;
      case 'webhook.test':
        expectTypeOf(event.data.message).toEqualTypeOf<string>();
        break;
      default:
        expectTypeOf(event).toBeNever();
    }
  });

  it('lists exactly the six types, sandbox ones without application.created', () => {
    expectTypeOf<WebhookEventType>().toEqualTypeOf<
      | 'message.received'
      | 'message.status_updated'
      | 'connection.connected'
      | 'connection.disconnected'
      | 'developer.application.created'
      | 'webhook.test'
    >();
    expectTypeOf<'developer.application.created'>().not.toExtend<SandboxEventType>();
  });
});
