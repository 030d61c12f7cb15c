import { describe, expect, test } from 'vitest';
import {
  connectionTemplates,
  SANDBOX_ACTIVE_CONNECTION_ID,
  SANDBOX_CONNECTIONS,
  SANDBOX_DISCONNECTED_CONNECTION_ID,
  SANDBOX_WABA_ID,
  SYNTHETIC_INBOUND_TEXT,
  SYNTHETIC_RECIPIENT,
  SYNTHETIC_SENDER,
  sandboxConnection,
  syntheticInboundMessage,
  syntheticStatusMessage,
  TEMPLATE_DEFINITIONS,
  type TemplateDefinition,
  templateReference,
  templatesOf,
} from './sandbox-fixtures';

// Field by field against the service spec (/work/shared/spec/messaging-api-spec.md) and, where the
// spec leaves the exact value open, the value docs/api-reference.md ("Sandbox fixtures") publishes.
describe('sandbox connections (spec 4.7)', () => {
  test('two: first active, second disconnected, with the documented fixed values', () => {
    expect(SANDBOX_CONNECTIONS).toStrictEqual([
      {
        object: 'connection',
        id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51', // spec 2.3 (a UUID); docs: the same in every run
        status: 'active', // spec 4.7: one active
        phone_number: '+15550100001', // spec 2.3 (a phone number); docs
        name: 'Parley Sandbox', // spec 2.3 (a string); docs
        quality_rating: 'GREEN', // spec 4.7 and 2.3: GREEN in the sandbox
        waba_id: '100000000000000', // spec 4.7: a fixed sandbox value; docs: this one
        livemode: false, // spec 4.7
        created_at: '2026-10-14T00:00:00Z', // docs
      },
      {
        object: 'connection',
        id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b52', // spec 2.3; docs
        status: 'disconnected', // spec 4.7: one disconnected
        phone_number: '+15550100002', // spec 2.3; docs
        name: 'Parley Sandbox (disconnected)', // spec 2.3; docs
        quality_rating: 'GREEN', // spec 4.7: both GREEN
        waba_id: '100000000000000', // spec 4.7: both the same fixed value
        livemode: false, // spec 4.7: both false
        created_at: '2026-10-14T00:00:00Z', // docs
      },
    ]);
    expect(SANDBOX_ACTIVE_CONNECTION_ID).toBe(SANDBOX_CONNECTIONS[0]!.id);
    expect(SANDBOX_DISCONNECTED_CONNECTION_ID).toBe(SANDBOX_CONNECTIONS[1]!.id);
    expect(SANDBOX_WABA_ID).toBe('100000000000000');
  });

  test('frozen: no application can change them for the others', () => {
    expect(Object.isFrozen(SANDBOX_CONNECTIONS)).toBe(true);
    expect(Object.isFrozen(TEMPLATE_DEFINITIONS)).toBe(true);
  });

  test('sandboxConnection: by id, only the two fixtures', () => {
    expect(sandboxConnection(SANDBOX_ACTIVE_CONNECTION_ID)).toBe(SANDBOX_CONNECTIONS[0]);
    expect(sandboxConnection(SANDBOX_DISCONNECTED_CONNECTION_ID)).toBe(SANDBOX_CONNECTIONS[1]);
    expect(sandboxConnection('7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b53')).toBeUndefined();
  });
});

describe('templates every connection carries (spec 4.7)', () => {
  test('hello_world en UTILITY 0 and order_confirmation fr UTILITY 2, with the documented bodies', () => {
    expect(TEMPLATE_DEFINITIONS).toStrictEqual([
      {
        object: 'template',
        name: 'hello_world', // spec 4.7
        language: 'en', // spec 4.7
        category: 'UTILITY', // spec 4.7 (and 2.4)
        variable_count: 0, // spec 4.7
        body: 'Hello from Parley! This is a test message.', // spec 4.7: a fixed English greeting; docs: this one
      },
      {
        object: 'template',
        name: 'order_confirmation', // spec 4.7
        language: 'fr', // spec 4.7
        category: 'UTILITY', // spec 4.7
        variable_count: 2, // spec 4.7
        body: 'Bonjour {{1}}, votre commande {{2}} est confirmée.', // spec 4.7: French, with {{1}} and {{2}}; docs
      },
    ]);
  });

  test('each body holds exactly the placeholders {{1}} … {{variable_count}}', () => {
    for (const template of TEMPLATE_DEFINITIONS) {
      const placeholders = [...template.body.matchAll(/\{\{(\d+)\}\}/g)].map((match) => Number(match[1]));
      expect(placeholders).toEqual(Array.from({ length: template.variable_count }, (_, i) => i + 1));
    }
  });

  test('templatesOf: both, stamped with the connection id', () => {
    expect(templatesOf(SANDBOX_DISCONNECTED_CONNECTION_ID)).toStrictEqual(
      TEMPLATE_DEFINITIONS.map((template) => ({
        ...template,
        connection_id: SANDBOX_DISCONNECTED_CONNECTION_ID,
      })),
    );
  });

  test('a connection’s own templates come after the two', () => {
    const own: TemplateDefinition[] = [
      {
        object: 'template',
        name: 'shipped',
        language: 'en',
        category: 'UTILITY',
        variable_count: 1,
        body: 'Shipped {{1}}',
      },
    ];
    expect(connectionTemplates(undefined)).toBe(TEMPLATE_DEFINITIONS);
    expect(connectionTemplates([])).toBe(TEMPLATE_DEFINITIONS);
    expect(connectionTemplates(own)).toEqual([...TEMPLATE_DEFINITIONS, ...own]);
    expect(templatesOf('c', own).map((template) => [template.name, template.connection_id])).toEqual([
      ['hello_world', 'c'],
      ['order_confirmation', 'c'],
      ['shipped', 'c'],
    ]);
  });

  test('templateReference: {name, language}, one shared frozen object per fixed template', () => {
    const [hello, order] = TEMPLATE_DEFINITIONS as [TemplateDefinition, TemplateDefinition];
    expect(templateReference(hello)).toStrictEqual({ name: 'hello_world', language: 'en' });
    expect(templateReference(order)).toStrictEqual({ name: 'order_confirmation', language: 'fr' });
    expect(templateReference(hello)).toBe(templateReference(hello));
    expect(Object.isFrozen(templateReference(hello))).toBe(true);
    const own = { ...hello, name: 'own', language: 'de' };
    expect(templateReference(own)).toStrictEqual({ name: 'own', language: 'de' });
  });
});

describe('synthetic event data (spec 4.6, DESIGN §2)', () => {
  test('message.received: fixed sender and short French text, first sandbox connection', () => {
    expect(SYNTHETIC_SENDER).toBe('+33612345678'); // spec 4.6: a fixed sender number
    expect(SYNTHETIC_INBOUND_TEXT).toBe('Bonjour ! Où en est ma commande ?'); // spec 4.6: fixed, short, French
    expect(syntheticInboundMessage('m-1', '2026-10-14T09:30:00Z')).toStrictEqual({
      id: 'm-1',
      object: 'message',
      direction: 'inbound', // spec 2.1
      connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51', // spec 4.6: the first sandbox connection
      to: null, // spec 2.1: null on inbound
      from: '+33612345678',
      type: 'text',
      text: 'Bonjour ! Où en est ma commande ?',
      template: null,
      status: 'received', // spec 3.1: inbound
      error: null,
      client_reference: null,
      created_at: '2026-10-14T09:30:00Z',
      updated_at: '2026-10-14T09:30:00Z',
      livemode: false, // spec 2.1: false for sandbox
    });
  });

  test('message.status_updated: a delivered hello_world to the fixed recipient', () => {
    expect(SYNTHETIC_RECIPIENT).toBe('+15550123456'); // not a magic recipient (magic-recipients.test.ts)
    expect(syntheticStatusMessage('m-2', '2026-10-14T09:30:00Z')).toStrictEqual({
      id: 'm-2',
      object: 'message',
      direction: 'outbound',
      connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
      to: '+15550123456',
      from: null,
      type: 'template',
      text: null,
      template: { name: 'hello_world', language: 'en' },
      status: 'delivered',
      error: null,
      client_reference: null,
      created_at: '2026-10-14T09:30:00Z',
      updated_at: '2026-10-14T09:30:00Z',
      livemode: false,
    });
  });
});
