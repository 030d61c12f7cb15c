import { describe, expect, it } from 'vitest';
import { terminalSafe, terminalSafeData, terminalSafeJson, terminalSafeText } from './terminal-safe';

const char = (code: number) => String.fromCharCode(code);
const hex = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`;
const named = (codes: number[]) => codes.map((code) => [code.toString(16).padStart(4, '0'), code] as const);

// Each range's first and last character, and the neighbours just outside it.
const ESCAPED = [
  0x0000, 0x0007, 0x0009, 0x000a, 0x000d, 0x001b, 0x001f, 0x007f, 0x0080, 0x009b, 0x009f, 0x061c, 0x200e,
  0x200f, 0x2028, 0x2029, 0x202a, 0x202e, 0x2066, 0x2069,
];
const KEPT = [
  0x0020, 0x0041, 0x005c, 0x007e, 0x00a0, 0x00e9, 0x061b, 0x061d, 0x200d, 0x2010, 0x2027, 0x202f, 0x2065,
  0x206a, 0x2026, 0xfeff, 0xfffd,
];

describe('terminalSafe', () => {
  it.each(named(ESCAPED))('writes U+%s as its \\uXXXX text', (_name, code) => {
    expect(terminalSafe(`a${char(code)}b`)).toBe(`a${hex(code)}b`);
  });

  it.each(named(KEPT))('keeps U+%s as it is', (_name, code) => {
    expect(terminalSafe(`a${char(code)}b`)).toBe(`a${char(code)}b`);
  });

  it('escapes exactly 79 characters of the BMP: C0 (32), DEL, C1 (32), bidi (12), U+2028 and U+2029', () => {
    const escaped: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      if (terminalSafe(char(code)) !== char(code)) escaped.push(code);
    }
    expect(escaped).toHaveLength(79);
    expect(escaped.filter((code) => code > 0x9f)).toEqual([
      0x061c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068,
      0x2069,
    ]);
  });

  it('neutralises a title change, a screen clear, an 8-bit CSI and a right-to-left override', () => {
    expect(terminalSafe('\x1b]0;pwned\x07Shop\x1b[2J\u009b31m\u202eevil')).toBe(
      '\\u001b]0;pwned\\u0007Shop\\u001b[2J\\u009b31m\\u202eevil',
    );
  });

  it('is idempotent: its output has nothing left to escape', () => {
    const once = terminalSafe('\x1b[2J\u202e\t');
    expect(terminalSafe(once)).toBe(once);
  });

  it('writes a value that is not a string (a server ignoring the types) as text', () => {
    expect(terminalSafe(42 as unknown as string)).toBe('42');
  });
});

describe('terminalSafeText', () => {
  it('keeps tabs, line feeds and the CR of a CRLF, and escapes the rest like terminalSafe', () => {
    expect(terminalSafeText('{\r\n\t"a": 1\n}')).toBe('{\r\n\t"a": 1\n}');
    expect(terminalSafeText('a\rb\x1b[2J\x0b\x0c\x08\u009b\u202e\u2028')).toBe(
      'a\\u000db\\u001b[2J\\u000b\\u000c\\u0008\\u009b\\u202e\\u2028',
    );
    expect(terminalSafeText('end\r')).toBe('end\\u000d');
  });
});

describe('terminalSafeData', () => {
  it('copies arrays and plain objects with every string and key escaped, leaving the rest', () => {
    const at = new Date(0);
    const data = {
      name: '\x1b]0;pwned\x07',
      count: 3,
      ok: true,
      none: null,
      list: ['\u009b', { '\u202ekey': 'x\ny' }],
      at,
    };
    const safe = terminalSafeData(data);
    expect(safe).toEqual({
      name: '\\u001b]0;pwned\\u0007',
      count: 3,
      ok: true,
      none: null,
      list: ['\\u009b', { '\\u202ekey': 'x\\u000ay' }],
      at,
    });
    expect(safe.at).toBe(at);
    expect(data.name).toBe('\x1b]0;pwned\x07');
  });

  it('keeps a "__proto__" key an own key of the copy, never its prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": "\\u001b"}, "constructor": "x"}');
    const safe = terminalSafeData(parsed);
    expect(Object.getPrototypeOf(safe)).toBe(Object.prototype);
    expect(Object.hasOwn(safe, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(safe, '__proto__')?.value).toEqual({ polluted: '\\u001b' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('terminalSafeJson', () => {
  it('writes DEL, C1, bidi and line separators as \\uXXXX too, and parses back to the same value', () => {
    const value = { name: 'a\x1b\x7f\u0080\u009b\u009f\u202e\u2066\u2028\u061c', n: [1, 'é…'] };
    const text = terminalSafeJson(value, 2);
    expect(text).toBe(
      '{\n  "name": "a\\u001b\\u007f\\u0080\\u009b\\u009f\\u202e\\u2066\\u2028\\u061c",\n  "n": [\n    1,\n    "é…"\n  ]\n}',
    );
    expect(JSON.parse(text)).toEqual(value);
    expect(terminalSafeJson(value)).toBe(
      JSON.stringify(value).replace(/[\u007f-\u009f\u202e\u2066\u2028\u061c]/g, (c) => hex(c.charCodeAt(0))),
    );
  });
});
