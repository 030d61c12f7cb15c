// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text read from a data file (an id, a key) made safe for a terminal: control, bidi and line
 * separator characters become their visible `\uXXXX` and the text is cut at `max` characters, so a
 * hostile file can neither drive the terminal nor flood it.
 */
export function printable(text: string, max = 60): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return cut.replace(UNSAFE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
