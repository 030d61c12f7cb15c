/** The deepest nesting of arrays and objects a request body may have (issue: 5,000 levels was a 500). */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether the JSON text nests arrays and objects deeper than `limit`, read as text in one pass
 * without recursing, so it runs before anything that recurses over the parsed value (the body
 * fingerprint, canonical JSON, validation). Brackets inside strings do not count. A malformed
 * text may be misjudged here; `JSON.parse` refuses it right after.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  // A text with no more opening brackets than the limit cannot nest deeper: counting them with
  // indexOf, which skips the rest natively, is ~5x faster than the pass below on a send body
  // (0.06 µs against 0.32, issue 23), and every /v1 body is checked.
  if (!opensMoreThan(text, limit)) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** Whether `text` holds more than `limit` `{` and `[` together, inside strings or not. */
function opensMoreThan(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++count > limit) return true;
    }
  }
  return false;
}
