import type { Message, Parley } from '@parley/sdk';

/** An order of the application under test. */
export interface Order {
  id: string;
  customerName: string;
  /** International format, e.g. `+33612345678`. */
  phone: string;
}

/** Where a confirmation stands, in the application's own words. */
export type ConfirmationState = 'pending' | 'delivered' | 'failed';

/**
 * Sends the `order_confirmation` template for an order. The idempotency key is derived from the
 * order, so calling it twice for one order (a retried job, a double click) sends one message.
 */
export function sendOrderConfirmation(parley: Parley, connectionId: string, order: Order): Promise<Message> {
  return parley.messages.send(
    {
      type: 'template',
      connection_id: connectionId,
      to: order.phone,
      template: { name: 'order_confirmation', language: 'fr', variables: [order.customerName, order.id] },
      client_reference: order.id,
    },
    { idempotencyKey: `order-confirmation-${order.id}` },
  );
}

/** Reads the message and says whether the customer has the confirmation. */
export async function confirmationState(parley: Parley, messageId: string): Promise<ConfirmationState> {
  const message = await parley.messages.get(messageId);
  if (message.status === 'failed') return 'failed';
  return message.status === 'delivered' || message.status === 'read' ? 'delivered' : 'pending';
}
