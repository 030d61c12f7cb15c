import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { maskSecrets, maskSecretsIn } from './_mask-secrets';

const KEY = 'prl_sandbox_AbCd0123456789abcdefghijABCDEFGHIJ';
const LIVE_KEY = 'prl_live_WxYz0123456789abcdefghijABCDEFGHIJ';
const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJkl';

const BASE62 = [...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'];
const base62 = (length: number) =>
  fc.string({ unit: fc.constantFrom(...BASE62), minLength: length, maxLength: length });
/** A key or a signing secret in its exact shape (DESIGN §2), and the characters it must never show. */
const secretShape = fc.oneof(
  fc
    .tuple(fc.constantFrom('sandbox', 'live'), base62(32))
    .map(([environment, body]) => ({ value: `prl_${environment}_${body}`, hidden: body.slice(4) })),
  base62(32).map((body) => ({ value: `whsec_${body}`, hidden: body })),
);
/** Text around it: any code points (controls, `_`, letters, astral, lone surrogates) or a secret's own prefix. */
const anyCharacter = fc.oneof(
  fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
  fc.constantFrom('\n', '\t', '_', 'a', 'Z', '9', '\\', '"', '%'),
);
const surrounding = fc.oneof(
  fc.string({ unit: anyCharacter, maxLength: 30 }),
  fc.constantFrom('', '\n', '\t', '_', 'a', 'Z', '9', '\\n', 'prl_sandbox_', 'whsec_', '?key=', '%5F', '"'),
);

describe('maskSecrets', () => {
  test.each([
    ['a newline', `text\n${KEY}`, 'text\nprl_sandbox_AbCd…'],
    ['a tab', `\t${KEY}\t`, '\tprl_sandbox_AbCd…\t'],
    ['an underscore', `x_${KEY}`, 'x_prl_sandbox_AbCd…'],
    ['a letter', `key${LIVE_KEY}`, 'keyprl_live_WxYz…'],
    ['a digit, then a secret after a letter', `1${KEY} b${SECRET}`, '1prl_sandbox_AbCd… bwhsec_…'],
    ['JSON-escaped text', `{"a":"\\n${SECRET}"}`, '{"a":"\\nwhsec_…"}'],
    ['a query string', `/hook?token_${KEY}&s=${SECRET}`, '/hook?token_prl_sandbox_AbCd…&s=whsec_…'],
    ['a percent-encoded underscore', `/v1/prl%5Fsandbox%5F${KEY.slice(12)}`, '/v1/prl%5Fsandbox%5FAbCd…'],
    ['nothing (start of text)', KEY, 'prl_sandbox_AbCd…'],
  ])('masks a key or secret after %s', (_, text, masked) => {
    expect(maskSecrets(text)).toBe(masked);
  });

  test('secrets back to back: each is masked, none swallows the start of the next', () => {
    // The first run reads on through the next one's `prl` or `whsec`; the next one's characters still go.
    expect(maskSecrets(`${KEY}${LIVE_KEY}`)).toBe('prl_sandbox_AbCd…_live_WxYz…');
    expect(maskSecrets(`${SECRET}${SECRET}`)).toBe('whsec_…_…');
    expect(maskSecrets(`${KEY.slice(0, -5)}whsec_${SECRET.slice(6)}`)).toBe('prl_sandbox_AbCd…_…');
  });

  test('leaves what is not a key or a secret: the display prefix, short runs, other prefixes', () => {
    for (const text of [
      'prl_sandbox_AbCd',
      'prl_sandbox_AbCd…',
      'whsec_…',
      `prl_sandbox_${'a'.repeat(31)}`,
      `whsec_${'a'.repeat(31)}`,
      `prl_test_${'a'.repeat(32)}`,
      'no secret here',
    ]) {
      expect(maskSecrets(text)).toBe(text);
    }
  });

  test('fuzzed: a key or secret at any position, after and before anything, never shows', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(surrounding, secretShape), { minLength: 1, maxLength: 4 }),
        surrounding,
        (parts, end) => {
          const text = parts.map(([before, secret]) => before + secret.value).join('') + end;
          const masked = maskSecrets(text);
          for (const [, secret] of parts) expect(masked).not.toContain(secret.hidden);
          // Masking is stable: masked text masks to itself.
          expect(maskSecrets(masked)).toBe(masked);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('maskSecretsIn', () => {
  test('masks every string and property name at any depth, copying only the path to a change', () => {
    const untouched = { id: 'msg_1', tags: ['a', 'b'] };
    const live = {
      text: `hi\n${KEY}`,
      untouched,
      nested: [{ deeper: [`_${SECRET}`] }],
      [`x${KEY}`]: 1,
      count: 3,
      none: null,
    };
    const before = structuredClone(live);

    const masked = maskSecretsIn(live);

    expect(masked).toEqual({
      text: 'hi\nprl_sandbox_AbCd…',
      untouched,
      nested: [{ deeper: ['_whsec_…'] }],
      'xprl_sandbox_AbCd…': 1,
      count: 3,
      none: null,
    });
    expect(live).toEqual(before);
    expect(masked.untouched).toBe(untouched);
    expect(maskSecretsIn(untouched)).toBe(untouched);
  });

  test('a `__proto__` field stays a field of the copy, never its prototype', () => {
    const value = JSON.parse(`{"__proto__":{"polluted":"${KEY}"},"text":"${KEY}"}`);
    const masked = maskSecretsIn(value);
    expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(masked)).toEqual(['__proto__', 'text']);
    expect(JSON.stringify(masked)).toBe(
      '{"__proto__":{"polluted":"prl_sandbox_AbCd…"},"text":"prl_sandbox_AbCd…"}',
    );
  });

  test('fuzzed: secrets anywhere in a JSON value never show in it or in its JSON', () => {
    /** A JSON value and the secret characters it holds. */
    interface Holding {
      value: unknown;
      hidden: string[];
    }
    const text: fc.Arbitrary<Holding & { value: string }> = fc
      .tuple(surrounding, secretShape, surrounding)
      .map(([before, secret, after]) => ({ value: before + secret.value + after, hidden: [secret.hidden] }));
    const plain: fc.Arbitrary<Holding> = fc
      .oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.string({ maxLength: 8 }))
      .map((value) => ({ value, hidden: [] }));
    const { node } = fc.letrec<{ node: Holding }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        text,
        plain,
        fc.array(tie('node'), { maxLength: 4 }).map((items) => ({
          value: items.map((item) => item.value),
          hidden: items.flatMap((item) => item.hidden),
        })),
        fc.array(fc.tuple(text, tie('node')), { maxLength: 4 }).map((pairs) => ({
          value: Object.fromEntries(pairs.map(([name, field]) => [name.value, field.value])),
          hidden: pairs.flatMap(([name, field]) => [...name.hidden, ...field.hidden]),
        })),
      ),
    }));
    fc.assert(
      fc.property(node, ({ value, hidden }) => {
        const before = JSON.stringify(value);
        const masked = JSON.stringify(maskSecretsIn(value));
        for (const secret of hidden) expect(masked).not.toContain(secret);
        expect(JSON.stringify(value)).toBe(before);
      }),
      { numRuns: 1_000 },
    );
  });
});
