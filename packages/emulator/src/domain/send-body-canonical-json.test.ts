import { canonicalJson } from '@parley/sdk';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { sendBodyCanonicalJson } from './_send-body-canonical-json';

const SEND = {
  connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
  to: '+33612345678',
  type: 'template',
  template: { name: 'order_confirmation', language: 'fr', variables: ['Ana', 'A-1042'] },
};

/** A value as any JSON body may hold it, strings with any code points (escapes, lone surrogates). */
const anyText = fc.string({ unit: 'binary', maxLength: 20 });
const jsonValue = fc.oneof(
  anyText,
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  fc.array(anyText, { maxLength: 3 }),
  fc.dictionary(anyText, anyText, { maxKeys: 2 }),
);
const template = fc.oneof(
  fc.constant(null),
  jsonValue,
  fc.record(
    {
      name: fc.oneof(anyText, jsonValue),
      language: fc.oneof(anyText, jsonValue),
      variables: fc.oneof(fc.array(anyText, { maxLength: 4 }), jsonValue),
      extra: jsonValue,
    },
    { requiredKeys: [] },
  ),
);
/** Send-like bodies: any subset of the documented members, in any order, sometimes one more. */
const sendLike = fc
  .record(
    {
      connection_id: fc.oneof(anyText, jsonValue),
      to: fc.oneof(anyText, jsonValue),
      type: fc.oneof(fc.constantFrom('template', 'text'), jsonValue),
      template,
      text: fc.oneof(anyText, jsonValue),
      client_reference: fc.oneof(anyText, jsonValue),
      other: jsonValue,
    },
    { requiredKeys: [] },
  )
  .chain((body) => fc.shuffledSubarray(Object.entries(body)).map((entries) => Object.fromEntries(entries)));

describe('sendBodyCanonicalJson', () => {
  test('writes exactly canonicalJson, or leaves the body to it, for any send-like JSON body', () => {
    let written = 0;
    fc.assert(
      fc.property(sendLike, (built) => {
        // As the emulator gets it: parsed from the text a client sent.
        const body = JSON.parse(JSON.stringify(built));
        const json = sendBodyCanonicalJson(body);
        if (json === undefined) return;
        written++;
        expect(json).toBe(canonicalJson(body));
      }),
      { numRuns: 2000, seed: 23 },
    );
    // Enough bodies took the fast path for the comparison to mean something.
    expect(written).toBeGreaterThan(200);
  });

  test('writes the usual sends itself, members in any order, with or without the optional ones', () => {
    const reordered = JSON.parse(
      '{"template":{"variables":["Ana","A-1042"],"language":"fr","name":"order_confirmation"},"type":"template","to":"+33612345678","connection_id":"7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51"}',
    );
    const text = {
      connection_id: SEND.connection_id,
      to: SEND.to,
      type: 'text',
      text: 'é "quoted" \u2028',
      client_reference: null,
    };
    const noVariables = { ...SEND, template: { name: 'hello_world', language: 'en' } };
    for (const body of [SEND, reordered, text, noVariables]) {
      expect(sendBodyCanonicalJson(body)).toBe(canonicalJson(body));
    }
    expect(sendBodyCanonicalJson(reordered)).toBe(
      '{"connection_id":"7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51","template":{"language":"fr","name":"order_confirmation","variables":["Ana","A-1042"]},"to":"+33612345678","type":"template"}',
    );
  });

  test('leaves every other body to canonicalJson: unknown or inherited members, other types, non-plain objects', () => {
    class Template {
      name = 'hello_world';
      language = 'en';
      toJSON() {
        return 'replaced';
      }
    }
    const polluted = Object.create({ injected: 'x' });
    Object.assign(polluted, SEND);
    for (const body of [
      JSON.parse(`{"__proto__":{"a":1},${JSON.stringify(SEND).slice(1)}`),
      { ...SEND, extra: 1 },
      { ...SEND, to: 33612345678 },
      { ...SEND, template: { ...SEND.template, variables: ['Ana', 1] } },
      { ...SEND, template: { ...SEND.template, extra: 'x' } },
      { ...SEND, template: ['order_confirmation'] },
      { ...SEND, template: new Template() },
      polluted,
      [SEND],
      'text',
      null,
    ]) {
      expect(sendBodyCanonicalJson(body)).toBeUndefined();
    }
  });
});
