import { describe, expectTypeOf, it } from 'vitest';
import { Parley } from '../client';
import type { Message, SendMessageParams, SendTemplateMessageParams, SendTextMessageParams } from './message';

declare const parley: Parley;
const base = { connection_id: 'c1', to: '+33612345678' };

describe('messages.send params', () => {
  it('accept exactly the template and the text shape', () => {
    parley.messages.send({ ...base, type: 'text', text: 'Bonjour' });
    parley.messages.send({
      ...base,
      type: 'template',
      template: { name: 'n', language: 'fr', variables: [] },
    });
    parley.messages.send(
      { ...base, type: 'text', text: 'Bonjour', client_reference: 'r' },
      { idempotencyKey: 'k' },
    );
  });

  it('refuse a wrong combination', () => {
    const template = { name: 'n', language: 'fr', variables: ['a'] };
    const send = parley.messages.send.bind(parley.messages);
    // @ts-expect-error a text message has no template
    send({ ...base, type: 'text', text: 'x', template });
    // @ts-expect-error a template message has no text
    send({ ...base, type: 'template', text: 'x', template });
    // @ts-expect-error a text message needs text
    send({ ...base, type: 'text' });
    // @ts-expect-error a template message needs its template
    send({ ...base, type: 'template' });
    // @ts-expect-error variables are strings
    send({ ...base, type: 'template', template: { ...template, variables: [1] } });
    // @ts-expect-error unknown type
    send({ ...base, type: 'image', text: 'x' });
  });

  it('narrow on type', () => {
    const params = {} as SendMessageParams;
    if (params.type === 'text') expectTypeOf(params).toEqualTypeOf<SendTextMessageParams>();
    else expectTypeOf(params).toEqualTypeOf<SendTemplateMessageParams>();
  });

  it('resolve to a Message, with the response on demand', async () => {
    expectTypeOf(await parley.messages.send({ ...base, type: 'text', text: 'x' })).toEqualTypeOf<Message>();
    const { data, requestId } = await parley.messages.get('m').withResponse();
    expectTypeOf(data).toEqualTypeOf<Message>();
    expectTypeOf(requestId).toEqualTypeOf<string | undefined>();
  });

  it('options accept possibly-undefined values, as process.env gives them', () => {
    const fromEnv = process.env.PARLEY_API_KEY;
    new Parley({ apiKey: fromEnv, baseUrl: process.env.PARLEY_BASE_URL, timeout: undefined });
    parley.messages.send({ ...base, type: 'text', text: 'x' }, { idempotencyKey: undefined });
  });

  it('waitFor accepts only statuses it can wait for', () => {
    parley.messages.waitFor('m', { until: 'delivered', timeout: 1000 });
    // @ts-expect-error failed is not something to wait for
    parley.messages.waitFor('m', { until: 'failed' });
  });
});
