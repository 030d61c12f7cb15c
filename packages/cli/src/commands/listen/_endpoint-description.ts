/** The most characters the emulator keeps in an endpoint description. */
const MAX_DESCRIPTION_LENGTH = 200;

/**
 * What `listen`'s temporary endpoint says it is, shown under its URL in the console:
 * `parley listen → <forward url>`, cut with `…` when the URL would take it past 200 characters
 * (the emulator refuses longer ones). The URL is `new URL().href`: no control characters.
 */
export function listenDescription(forwardTo: string): string {
  const text = [...`parley listen → ${forwardTo}`];
  return text.length <= MAX_DESCRIPTION_LENGTH
    ? text.join('')
    : `${text.slice(0, MAX_DESCRIPTION_LENGTH - 1).join('')}…`;
}
