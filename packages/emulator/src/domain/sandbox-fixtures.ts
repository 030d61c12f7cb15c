import type { Connection, Message, Template } from '@parley/sdk';
import { inboundMessage } from './inbound-message';

/** The active sandbox connection: the same UUID for every sandbox application, in every run (DESIGN §2). */
export const SANDBOX_ACTIVE_CONNECTION_ID = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
/** The disconnected sandbox connection: sends through it answer 409 `connection_inactive`. */
export const SANDBOX_DISCONNECTED_CONNECTION_ID = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b52';
/** The fixed `waba_id` of both sandbox connections (spec 4.7). */
export const SANDBOX_WABA_ID = '100000000000000';

const FIXTURE_CREATED_AT = '2026-10-14T00:00:00Z';

/** The two sandbox connections, first active, second disconnected (spec 4.7). */
export const SANDBOX_CONNECTIONS: readonly Connection[] = Object.freeze([
  {
    object: 'connection',
    id: SANDBOX_ACTIVE_CONNECTION_ID,
    status: 'active',
    phone_number: '+15550100001',
    name: 'Parley Sandbox',
    quality_rating: 'GREEN',
    waba_id: SANDBOX_WABA_ID,
    livemode: false,
    created_at: FIXTURE_CREATED_AT,
  },
  {
    object: 'connection',
    id: SANDBOX_DISCONNECTED_CONNECTION_ID,
    status: 'disconnected',
    phone_number: '+15550100002',
    name: 'Parley Sandbox (disconnected)',
    quality_rating: 'GREEN',
    waba_id: SANDBOX_WABA_ID,
    livemode: false,
    created_at: FIXTURE_CREATED_AT,
  },
]);

/** A template as a connection holds it: the wire template without its `connection_id`. */
export type TemplateDefinition = Omit<Template, 'connection_id'>;

/** The template definitions every connection carries, sandbox and simulated live alike (spec 4.7, DESIGN §4). */
export const TEMPLATE_DEFINITIONS: readonly TemplateDefinition[] = Object.freeze([
  {
    object: 'template',
    name: 'hello_world',
    language: 'en',
    category: 'UTILITY',
    variable_count: 0,
    body: 'Hello from Parley! This is a test message.',
  },
  {
    object: 'template',
    name: 'order_confirmation',
    language: 'fr',
    category: 'UTILITY',
    variable_count: 2,
    body: 'Bonjour {{1}}, votre commande {{2}} est confirmée.',
  },
]);

const references = new Map(
  TEMPLATE_DEFINITIONS.map((template) => [
    template,
    Object.freeze({ name: template.name, language: template.language }),
  ]),
);

/**
 * The `{name, language}` a message shows for one of the templates above: one frozen object per
 * template, shared by every message that uses it (a busy emulator keeps many messages).
 */
export function templateReference(template: (typeof TEMPLATE_DEFINITIONS)[number]): {
  name: string;
  language: string;
} {
  return references.get(template) ?? { name: template.name, language: template.language };
}

/**
 * What a connection can send: the two templates every connection carries, then its own (a
 * seed file can give a simulated live connection more). Listing and sending both read this.
 */
export function connectionTemplates(
  own: readonly TemplateDefinition[] | undefined,
): readonly TemplateDefinition[] {
  return own && own.length > 0 ? [...TEMPLATE_DEFINITIONS, ...own] : TEMPLATE_DEFINITIONS;
}

/** The templates of one connection, as the API lists them. */
export function templatesOf(connectionId: string, own?: readonly TemplateDefinition[]): Template[] {
  return connectionTemplates(own).map((template) => ({ ...template, connection_id: connectionId }));
}

// A Map, not a find() with a closure: every sandbox send looks its connection up (issue 23).
const SANDBOX_CONNECTION_BY_ID = new Map(
  SANDBOX_CONNECTIONS.map((connection) => [connection.id, connection]),
);

/** The sandbox connection with this id, if it is one. */
export function sandboxConnection(id: string): Connection | undefined {
  return SANDBOX_CONNECTION_BY_ID.get(id);
}

/** Sender of every synthetic `message.received` (spec 4.6). */
export const SYNTHETIC_SENDER = '+33612345678';
/** Text of every synthetic `message.received`: short and French (spec 4.6). */
export const SYNTHETIC_INBOUND_TEXT = 'Bonjour ! Où en est ma commande ?';
/** Recipient of the outbound message in a synthetic `message.status_updated`. */
export const SYNTHETIC_RECIPIENT = '+15550123456';

/** The inbound message of a synthetic `message.received`, on the first sandbox connection. */
export function syntheticInboundMessage(id: string, timestamp: string): Message {
  return inboundMessage({
    id,
    connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
    from: SYNTHETIC_SENDER,
    text: SYNTHETIC_INBOUND_TEXT,
    timestamp,
    livemode: false,
  });
}

/** The outbound message of a synthetic `message.status_updated`: a delivered `hello_world`. */
export function syntheticStatusMessage(id: string, timestamp: string): Message {
  return {
    id,
    object: 'message',
    direction: 'outbound',
    connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
    to: SYNTHETIC_RECIPIENT,
    from: null,
    type: 'template',
    text: null,
    template: { name: 'hello_world', language: 'en' },
    status: 'delivered',
    error: null,
    client_reference: null,
    created_at: timestamp,
    updated_at: timestamp,
    livemode: false,
  };
}
