import { describe, expect, test } from 'vitest';
import { T0, templateSend, testEmulator, textSend } from '../_testing/test-emulator';
import { SANDBOX_ACTIVE_CONNECTION_ID, SANDBOX_DISCONNECTED_CONNECTION_ID } from '../domain/sandbox-fixtures';

describe('POST /v1/messages: accepted sends', () => {
  test('a template send answers 202 with a queued message (spec 2.1 shape)', async () => {
    const { send } = testEmulator();
    const answer = await send(templateSend({ client_reference: 'order-1042' }));
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      object: 'message',
      direction: 'outbound',
      connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
      to: '+33612345678',
      from: null,
      type: 'template',
      text: null,
      template: { name: 'order_confirmation', language: 'fr' },
      status: 'queued',
      error: null,
      client_reference: 'order-1042',
      created_at: '2026-10-14T09:30:15Z',
      updated_at: '2026-10-14T09:30:15Z',
      livemode: false,
    });
  });

  test('a text send echoes its text; hello_world takes an empty variables array', async () => {
    const { send } = testEmulator();
    const text = await send(textSend({ text: 'Votre colis arrive demain.' }));
    expect(text.status).toBe(202);
    expect(text.body).toMatchObject({ type: 'text', text: 'Votre colis arrive demain.', template: null });
    const hello = await send(
      templateSend({ template: { name: 'hello_world', language: 'en', variables: [] } }),
    );
    expect(hello.status).toBe(202);
  });

  test('text of exactly 4096 characters is accepted, 4097 is not', async () => {
    const { send } = testEmulator();
    expect((await send(textSend({ text: 'é'.repeat(4096) }))).status).toBe(202);
    const tooLong = await send(textSend({ text: 'a'.repeat(4097) }));
    expect(tooLong.body.error.details).toEqual({ field: 'text', reason: 'too_long' });
  });
});

describe('sandbox transitions (spec 3.2): status is a function of age', () => {
  test('queued < 2 s ≤ sent < 5 s ≤ delivered, read back through GET /v1/messages/{id}', async () => {
    const { send, call, emulator } = testEmulator();
    const { body: accepted } = await send(templateSend());
    const statusAfter = async (ms: number) => {
      await emulator.clock.advance(ms);
      return (await call('GET', `/v1/messages/${accepted.id}`)).body;
    };
    expect((await statusAfter(1_999)).status).toBe('queued');
    const sent = await statusAfter(1);
    expect(sent.status).toBe('sent');
    expect(sent.updated_at).toBe('2026-10-14T09:30:17Z');
    expect((await statusAfter(2_999)).status).toBe('sent');
    const delivered = await statusAfter(1);
    expect(delivered).toMatchObject({ status: 'delivered', updated_at: '2026-10-14T09:30:20Z', error: null });
    expect((await statusAfter(3_600_000)).status).toBe('delivered');
  });

  test('one message.status_updated event at each change, emitted by the clock', async () => {
    const { send, emulator } = testEmulator();
    const { body: accepted } = await send(templateSend());
    const statusEvents = async () =>
      (await emulator.control.listEvents()).data
        .filter((event) => event.type === 'message.status_updated')
        .map((event) => ({
          status: (event.data as { message: { status: string } }).message.status,
          at: event.created_at,
        }));
    expect(await statusEvents()).toEqual([]);
    await emulator.clock.advance(10_000);
    expect(await statusEvents()).toEqual([
      { status: 'delivered', at: '2026-10-14T09:30:20Z' },
      { status: 'sent', at: '2026-10-14T09:30:17Z' },
    ]);
    const [event] = (await emulator.control.listEvents()).data;
    expect(event).toMatchObject({
      livemode: false,
      api_version: '2026-10-14',
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
    });
    expect((event!.data as { message: { id: string } }).message.id).toBe(accepted.id);
  });

  test('to ending 0000: 202 failed with recipient_unreachable and its status event at once', async () => {
    const { send, call, emulator } = testEmulator();
    const answer = await send(templateSend({ to: '+33612340000' }));
    expect(answer.status).toBe(202);
    expect(answer.body.status).toBe('failed');
    expect(answer.body.error).toEqual({ code: 'recipient_unreachable', message: expect.any(String) });
    expect((await emulator.control.listEvents()).data.map((event) => event.type)).toEqual([
      'message.status_updated',
    ]);
    await emulator.clock.advance(10_000);
    expect((await call('GET', `/v1/messages/${answer.body.id}`)).body.status).toBe('failed');
    expect((await emulator.control.listEvents()).data).toHaveLength(1);
  });
});

describe('POST /v1/messages: refusals', () => {
  const invalid: [string, Record<string, unknown>, string, string][] = [
    ['connection_id missing', { connection_id: undefined }, 'connection_id', 'required'],
    ['connection_id not a UUID', { connection_id: 'conn_1' }, 'connection_id', 'invalid_format'],
    ['connection_id not a string', { connection_id: 42 }, 'connection_id', 'invalid_type'],
    ['to missing', { to: undefined }, 'to', 'required'],
    ['to without +', { to: '33612345678' }, 'to', 'invalid_format'],
    ['to with 7 digits', { to: '+1234567' }, 'to', 'invalid_format'],
    ['to with 16 digits', { to: '+1234567890123456' }, 'to', 'invalid_format'],
    ['type missing', { type: undefined }, 'type', 'required'],
    ['type unknown', { type: 'image' }, 'type', 'invalid_value'],
    ['template missing', { template: undefined }, 'template', 'required'],
    ['template not an object', { template: 'hello_world' }, 'template', 'invalid_type'],
    ['template name missing', { template: { language: 'fr', variables: [] } }, 'template.name', 'required'],
    [
      'template language missing',
      { template: { name: 'hello_world', variables: [] } },
      'template.language',
      'required',
    ],
    [
      'unknown template',
      { template: { name: 'promo', language: 'fr', variables: [] } },
      'template.name',
      'not_found',
    ],
    [
      'template in another language',
      { template: { name: 'hello_world', language: 'fr', variables: [] } },
      'template.language',
      'not_found',
    ],
    [
      'too few variables',
      { template: { name: 'order_confirmation', language: 'fr', variables: ['Ana'] } },
      'template.variables',
      'wrong_count',
    ],
    [
      'too many variables',
      { template: { name: 'hello_world', language: 'en', variables: ['x'] } },
      'template.variables',
      'wrong_count',
    ],
    [
      'variables not strings',
      { template: { name: 'order_confirmation', language: 'fr', variables: ['Ana', 7] } },
      'template.variables',
      'invalid_type',
    ],
    [
      'variables not an array',
      { template: { name: 'hello_world', language: 'en', variables: 'x' } },
      'template.variables',
      'invalid_type',
    ],
    ['text on a template send', { text: 'hi' }, 'text', 'not_allowed'],
    ['client_reference too long', { client_reference: 'r'.repeat(129) }, 'client_reference', 'too_long'],
    ['client_reference not a string', { client_reference: 5 }, 'client_reference', 'invalid_type'],
    ['unknown field', { priority: 'high' }, 'priority', 'unknown_field'],
  ];

  test.each(invalid)('%s: 400 validation_error naming the field', async (_name, overrides, field, reason) => {
    const { send, emulator } = testEmulator();
    const body = JSON.parse(JSON.stringify(templateSend(overrides)));
    const answer = await send(body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'validation_error', details: { field, reason } });
    expect((await emulator.control.listMessages()).data).toEqual([]);
  });

  test.each([
    ['text missing', { text: undefined }, 'text', 'required'],
    ['text empty', { text: '' }, 'text', 'too_short'],
    ['text not a string', { text: ['hi'] }, 'text', 'invalid_type'],
    [
      'template on a text send',
      { template: { name: 'hello_world', language: 'en', variables: [] } },
      'template',
      'not_allowed',
    ],
  ])('text send, %s: 400 validation_error', async (_name, overrides, field, reason) => {
    const { send } = testEmulator();
    const answer = await send(JSON.parse(JSON.stringify(textSend(overrides))));
    expect(answer.body.error.details).toEqual({ field, reason });
  });

  test('a body that is not an object: 400 validation_error on body', async () => {
    const { send } = testEmulator();
    for (const body of [[], 'text', 42, null]) {
      const answer = await send(body);
      expect(answer.status).toBe(400);
      expect(answer.body.error.details).toEqual({ field: 'body', reason: 'invalid_type' });
    }
  });

  test('unknown connection: 404 not_found; the disconnected fixture: 409 connection_inactive', async () => {
    const { send } = testEmulator();
    const unknown = await send(templateSend({ connection_id: '0b7d7c1e-5f0e-4f5b-a1c2-9e8d7c6b5a49' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const inactive = await send(templateSend({ connection_id: SANDBOX_DISCONNECTED_CONNECTION_ID }));
    expect(inactive.status).toBe(409);
    expect(inactive.body.error.code).toBe('connection_inactive');
  });

  test('415 without application/json, 400 invalid_json for broken JSON, 413 over 100 KiB', async () => {
    const { call } = testEmulator();
    const headers = { 'idempotency-key': 'k1' };
    const form = await call('POST', '/v1/messages', {
      raw: 'a=b',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.body.error.code).toBe('unsupported_media_type');
    const none = await call('POST', '/v1/messages', { raw: JSON.stringify(templateSend()), headers });
    expect(none.status).toBe(415);
    const broken = await call('POST', '/v1/messages', {
      raw: '{"to":',
      headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe('invalid_json');
    const huge = JSON.stringify(textSend({ text: 'x'.repeat(100 * 1024) }));
    const tooLarge = await call('POST', '/v1/messages', {
      raw: huge,
      headers: { ...headers, 'content-type': 'application/json' },
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe('payload_too_large');
  });

  test('413 also for a streamed body without Content-Length', async () => {
    const { emulator } = testEmulator();
    const chunk = new TextEncoder().encode('x'.repeat(32 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await emulator.fetch(
      new Request('http://127.0.0.1:4010/v1/messages', {
        method: 'POST',
        body,
        duplex: 'half',
        headers: {
          authorization: `Bearer ${emulator.sandboxKey}`,
          'content-type': 'application/json',
          'idempotency-key': 's',
        },
      } as RequestInit),
    );
    expect(response.status).toBe(413);
  });

  test('401 comes before body checks', async () => {
    const { call } = testEmulator();
    const answer = await call('POST', '/v1/messages', {
      key: null,
      raw: 'not json',
      headers: { 'content-type': 'text/plain' },
    });
    expect(answer.status).toBe(401);
  });
});

describe('GET /v1/messages/{id}', () => {
  test('unknown id, malformed id, or another application’s message: 404 not_found', async () => {
    const { send, call, emulator } = testEmulator();
    const { body: mine } = await send(templateSend());
    const other = await emulator.control.createApplication({ name: 'other', environment: 'sandbox' });
    const otherKey = await emulator.control.createKey(other.id, {});
    for (const [path, key] of [
      ['/v1/messages/0b7d7c1e-5f0e-4f5b-a1c2-9e8d7c6b5a49', undefined],
      ['/v1/messages/%E0%A4%A', undefined],
      [`/v1/messages/${mine.id}`, otherKey.key],
    ] as const) {
      const answer = await call('GET', path, key ? { key } : {});
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
    expect((await call('GET', `/v1/messages/${mine.id}`)).status).toBe(200);
    expect(T0).toBe(Date.parse('2026-10-14T09:30:15Z'));
  });
});
