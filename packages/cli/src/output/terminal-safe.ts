/**
 * Characters a terminal acts on instead of showing, or that make it show text other than what it
 * holds: C0 controls (U+0000–U+001F: ESC starts colour, title, clear-screen sequences; a tab or
 * line break would also break a table cell), DEL (U+007F), C1 controls (U+0080–U+009F: U+009B is
 * a one-character CSI on many terminals), the bidi controls that reorder what follows (U+061C,
 * U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and the line and paragraph separators
 * (U+2028, U+2029).
 */
const BIDI_AND_SEPARATORS = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069\\u2028\\u2029';
const UNSAFE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${BIDI_AND_SEPARATORS}]`, 'g');
/** The same set less what text of several lines is made of: tab, line feed, the CR of a CRLF. */
const UNSAFE_IN_LINES = new RegExp(
  `[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f${BIDI_AND_SEPARATORS}]|\\r(?!\\n)`,
  'g',
);
/** What JSON.stringify leaves raw of the set: it writes C0 as `\u00XX`, and its own line breaks are layout. */
const UNSAFE_IN_JSON = new RegExp(`[\\u007f-\\u009f${BIDI_AND_SEPARATORS}]`, 'g');

/** `\u001b` for ESC: visible, one form for every character, and what JSON would write. */
const escaped = (character: string) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * One value from outside (a server's answer, a stream, a file) made safe to print: every control,
 * bidi or line-separator character becomes its visible `\uXXXX` text, everything else is kept.
 * Style the result, never the other way round: the CLI's own colours are escapes too.
 *
 * @example
 * terminalSafe('\x1b]0;pwned\x07Shop'); // '\\u001b]0;pwned\\u0007Shop'
 */
export function terminalSafe(text: string): string {
  // String(): a server's field the types call a string may hold anything.
  return String(text).replace(UNSAFE, escaped);
}

/**
 * Text of several lines that is printed whole (a curl line with the user's body): as
 * {@link terminalSafe}, but tabs, line feeds and the CR of a CRLF stay, since they only move the
 * cursor to where the next character belongs.
 */
export function terminalSafeText(text: string): string {
  return text.replace(UNSAFE_IN_LINES, escaped);
}

/**
 * A copy of `data` with every string, and every key, made {@link terminalSafe}: what a command's
 * human view gets, so no view can print a string from outside raw. Arrays and plain objects are
 * copied; anything else (a Date, a class instance) is passed as it is.
 *
 * @example
 * render(terminalSafeData(connections), context);
 */
export function terminalSafeData<Data>(data: Data): Data {
  return safeCopy(data) as Data;
}

function safeCopy(value: unknown): unknown {
  if (typeof value === 'string') return terminalSafe(value);
  if (Array.isArray(value)) return value.map(safeCopy);
  if (value === null || typeof value !== 'object') return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  // fromEntries defines own properties: a "__proto__" key stays a key, never the prototype.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [terminalSafe(key), safeCopy(item)]));
}

/**
 * `JSON.stringify` for output a person may also `cat`: JSON already writes C0 controls as
 * `\u00XX`, this writes DEL, C1, bidi and line-separator characters the same way. Those can only
 * stand inside JSON strings, where `\uXXXX` is the same character: every parser reads the very
 * same value.
 */
export function terminalSafeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(UNSAFE_IN_JSON, escaped);
}
