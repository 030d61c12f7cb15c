import { describe, expect, test } from 'vitest';
import { DomainError } from './domain-error';
import { TEMPLATE_DEFINITIONS } from './sandbox-fixtures';
import { checkTemplate, parseSendParams } from './send-params';

const CONNECTION_ID = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
const TO = '+15550123456';
const template = (extra: Record<string, unknown> = {}) => ({
  connection_id: CONNECTION_ID,
  to: TO,
  type: 'template',
  template: { name: 'order_confirmation', language: 'fr', variables: ['Ada', 'A-42'] },
  ...extra,
});
const text = (extra: Record<string, unknown> = {}) => ({
  connection_id: CONNECTION_ID,
  to: TO,
  type: 'text',
  text: 'Hi',
  ...extra,
});

function refusal(body: unknown): { message: string; details: unknown } {
  try {
    parseSendParams(body);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'validation_error', status: 400 });
    return { message: (error as DomainError).message, details: (error as DomainError).details };
  }
  throw new Error('expected a validation_error');
}

/** The message of each refusal, by `field reason`: every refusal below must say exactly this. */
const MESSAGES: Record<string, string> = {
  'body invalid_type': 'The request body must be a JSON object.',
  'extra unknown_field': 'Unknown field extra.',
  'connection_id required': 'connection_id is required.',
  'connection_id invalid_type': 'connection_id must be a string.',
  'connection_id invalid_format': 'connection_id must be a UUID.',
  'to required': 'to is required.',
  'to invalid_type': 'to must be a string.',
  'type required': 'type is required.',
  'type invalid_value': 'type must be "template" or "text".',
  'client_reference invalid_type': 'client_reference must be a string.',
  'text required': 'text is required.',
  'text invalid_type': 'text must be a string.',
  'text too_short': 'text must not be empty.',
  'text not_allowed': 'text is only for type "text".',
  'template not_allowed': 'template is only for type "template".',
  'template required': 'template is required.',
  'template invalid_type': 'template must be an object.',
  'template.name required': 'template.name is required.',
  'template.name invalid_type': 'template.name must be a string.',
  'template.language required': 'template.language is required.',
  'template.variables invalid_type': 'template.variables must be an array of strings.',
};

function reason(body: unknown): unknown {
  const { message, details } = refusal(body);
  const { field, reason } = details as { field: string; reason: string };
  expect(message).toBe(MESSAGES[`${field} ${reason}`]);
  return details;
}

describe('parseSendParams: the body of POST /v1/messages', () => {
  test('a template send, exactly', () => {
    expect(parseSendParams(template())).toStrictEqual(template());
  });

  test('a text send, exactly', () => {
    expect(parseSendParams(text())).toStrictEqual(text());
  });

  test.each([null, [], 'x', 42])('a body that is not an object (%j)', (body) => {
    expect(reason(body)).toEqual({ field: 'body', reason: 'invalid_type' });
  });

  test('unknown fields, at the top and in template, are named', () => {
    expect(refusal(template({ priority: 'high' }))).toEqual({
      message: 'Unknown field priority.',
      details: { field: 'priority', reason: 'unknown_field' },
    });
    const body = template({
      template: { name: 'hello_world', language: 'en', variables: [], namespace: 'x' },
    });
    expect(refusal(body)).toEqual({
      message: 'Unknown field template.namespace.',
      details: { field: 'template.namespace', reason: 'unknown_field' },
    });
    // Before any other check: the unknown field is what the caller must fix first.
    expect(reason({ to: 'nope', extra: 1 })).toEqual({ field: 'extra', reason: 'unknown_field' });
  });

  describe('connection_id, to, type', () => {
    test.each([
      [{ connection_id: undefined }, { field: 'connection_id', reason: 'required' }],
      [{ connection_id: null }, { field: 'connection_id', reason: 'required' }],
      [{ connection_id: 42 }, { field: 'connection_id', reason: 'invalid_type' }],
      [{ connection_id: 'conn-1' }, { field: 'connection_id', reason: 'invalid_format' }],
      [{ to: undefined }, { field: 'to', reason: 'required' }],
      [{ to: 15550123456 }, { field: 'to', reason: 'invalid_type' }],
      [{ type: null }, { field: 'type', reason: 'required' }],
      [{ type: 'image' }, { field: 'type', reason: 'invalid_value' }],
      [{ type: 'TEXT' }, { field: 'type', reason: 'invalid_value' }],
    ])('%j → %j', (change, details) => {
      expect(reason(template(change))).toEqual(details);
    });

    test.each(['+12345678', '+123456789012345'])('to %s: 8 and 15 digits accepted', (to) => {
      expect(parseSendParams(template({ to })).to).toBe(to);
    });

    test.each([
      '+1234567',
      '+1234567890123456',
      '15550123456',
      'x+15550123456',
      ' +15550123456',
      '++15550123456',
      '+15550123456 ',
      '+1555012345a',
      '+1 555 0123456',
      '+15550123456\n',
    ])('to %j: invalid_format', (to) => {
      expect(refusal(template({ to }))).toEqual({
        message: 'to must be an international number: "+" followed by 8 to 15 digits.',
        details: { field: 'to', reason: 'invalid_format' },
      });
    });
  });

  describe('client_reference', () => {
    test('128 characters (code points) accepted and kept; 129 too_long', () => {
      const reference = 'r'.repeat(128);
      expect(parseSendParams(template({ client_reference: reference }))).toStrictEqual(
        template({ client_reference: reference }),
      );
      expect(parseSendParams(text({ client_reference: '😀'.repeat(128) })).client_reference).toBe(
        '😀'.repeat(128),
      );
      expect(refusal(template({ client_reference: 'r'.repeat(129) }))).toEqual({
        message: 'client_reference must be at most 128 characters.',
        details: { field: 'client_reference', reason: 'too_long' },
      });
    });

    test('null or absent: no reference at all', () => {
      const parsed = parseSendParams(template({ client_reference: null }));
      expect(parsed).toStrictEqual(template());
      expect('client_reference' in parsed).toBe(false);
    });

    test('an empty string is a reference; a number is not', () => {
      expect(parseSendParams(text({ client_reference: '' })).client_reference).toBe('');
      expect(reason(text({ client_reference: 42 }))).toEqual({
        field: 'client_reference',
        reason: 'invalid_type',
      });
    });
  });

  describe('type text', () => {
    test('4096 characters (code points) accepted; 4097 too_long; empty too_short', () => {
      expect(parseSendParams(text({ text: '😀'.repeat(4096) })).type).toBe('text');
      expect(refusal(text({ text: 'a'.repeat(4097) }))).toEqual({
        message: 'text must be at most 4096 characters.',
        details: { field: 'text', reason: 'too_long' },
      });
      expect(reason(text({ text: '' }))).toEqual({ field: 'text', reason: 'too_short' });
    });

    test('text required, a string; no template beside it (not even null)', () => {
      expect(reason(text({ text: undefined }))).toEqual({ field: 'text', reason: 'required' });
      expect(reason(text({ text: ['Hi'] }))).toEqual({ field: 'text', reason: 'invalid_type' });
      expect(reason(text({ template: null }))).toEqual({ field: 'template', reason: 'not_allowed' });
    });
  });

  describe('type template', () => {
    const withTemplate = (value: unknown) => template({ template: value });

    test('variables default to an empty list', () => {
      expect(parseSendParams(withTemplate({ name: 'hello_world', language: 'en' }))).toStrictEqual(
        withTemplate({ name: 'hello_world', language: 'en', variables: [] }),
      );
    });

    test.each([
      [{ text: 'Hi' }, { field: 'text', reason: 'not_allowed' }],
      [{ text: null }, { field: 'text', reason: 'not_allowed' }],
      [{ template: undefined }, { field: 'template', reason: 'required' }],
      [{ template: null }, { field: 'template', reason: 'required' }],
      [{ template: ['hello_world'] }, { field: 'template', reason: 'invalid_type' }],
      [{ template: 'hello_world' }, { field: 'template', reason: 'invalid_type' }],
      [{ template: { language: 'en' } }, { field: 'template.name', reason: 'required' }],
      [{ template: { name: 1, language: 'en' } }, { field: 'template.name', reason: 'invalid_type' }],
      [{ template: { name: 'hello_world' } }, { field: 'template.language', reason: 'required' }],
      [
        { template: { name: 'hello_world', language: 'en', variables: 'a' } },
        { field: 'template.variables', reason: 'invalid_type' },
      ],
      [
        { template: { name: 'order_confirmation', language: 'fr', variables: ['a', 2] } },
        { field: 'template.variables', reason: 'invalid_type' },
      ],
    ])('%j → %j', (change, details) => {
      expect(reason(template(change))).toEqual(details);
    });
  });
});

describe('checkTemplate: against the connection’s templates', () => {
  const send = (name: string, language: string, variables: string[]) => ({ name, language, variables });
  const failure = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      expect(error).toMatchObject({ code: 'validation_error', status: 400 });
      return { message: (error as DomainError).message, details: (error as DomainError).details };
    }
    throw new Error('expected a validation_error');
  };

  test('the matching template, with its variable count', () => {
    expect(checkTemplate(send('hello_world', 'en', []), TEMPLATE_DEFINITIONS)).toBe(TEMPLATE_DEFINITIONS[0]);
    expect(checkTemplate(send('order_confirmation', 'fr', ['a', 'b']), TEMPLATE_DEFINITIONS)).toBe(
      TEMPLATE_DEFINITIONS[1],
    );
  });

  test('unknown name, other language, wrong variable count: each named', () => {
    expect(failure(() => checkTemplate(send('goodbye', 'en', []), TEMPLATE_DEFINITIONS))).toEqual({
      message: 'This connection has no template named goodbye.',
      details: { field: 'template.name', reason: 'not_found' },
    });
    const twoLanguages = [...TEMPLATE_DEFINITIONS, { ...TEMPLATE_DEFINITIONS[0]!, language: 'de' }];
    expect(failure(() => checkTemplate(send('hello_world', 'fr', []), twoLanguages))).toEqual({
      message: 'Template hello_world exists in en, de, not fr.',
      details: { field: 'template.language', reason: 'not_found' },
    });
    expect(checkTemplate(send('hello_world', 'de', []), twoLanguages)).toBe(twoLanguages[2]);
    for (const variables of [['a'], ['a', 'b', 'c']]) {
      expect(
        failure(() => checkTemplate(send('order_confirmation', 'fr', variables), TEMPLATE_DEFINITIONS)),
      ).toEqual({
        message: `Template order_confirmation takes exactly 2 variables; got ${variables.length}.`,
        details: { field: 'template.variables', reason: 'wrong_count' },
      });
    }
    expect(
      failure(() => checkTemplate(send('hello_world', 'en', ['x']), TEMPLATE_DEFINITIONS)).details,
    ).toEqual({
      field: 'template.variables',
      reason: 'wrong_count',
    });
  });
});
