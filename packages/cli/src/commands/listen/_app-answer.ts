/** How much of the app's answer `listen` shows. */
export const ANSWER_EXCERPT_BYTES = 200;

/**
 * How much of an answer `listen` (from the app) and `webhooks doctor` (from the receiver) read:
 * enough for any error body to end on its own, never the whole of an endless one. Past it the
 * response is cancelled.
 */
export const ANSWER_READ_BYTES = 64 * 1024;

/**
 * The first {@link ANSWER_EXCERPT_BYTES} bytes of the app's answer as one printable line: control
 * and bidirectional characters become spaces (the app's bytes must not drive the terminal), and
 * `…` marks a cut.
 */
export function answerExcerpt(body: Uint8Array): string {
  const cut = body.length > ANSWER_EXCERPT_BYTES;
  // A multi-byte character cut in two decodes to U+FFFD at the end: drop it.
  const text = new TextDecoder()
    .decode(body.subarray(0, ANSWER_EXCERPT_BYTES))
    .replace(/\uFFFD$/, '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]+/g, ' ')
    .trim();
  return cut ? `${text}…` : text;
}

// What receivers say when verifyWebhook refuses a delivery: the SDK's reasons and their words.
const VERIFICATION_WORDS = /signature|timestamp|verif|missing_header/i;

/**
 * True for a 400 whose body reads like a signature check that failed: the app probably holds
 * another secret than the one this `listen` signs with.
 */
export function looksLikeVerificationFailure(status: number | null, excerpt: string | null): boolean {
  return status === 400 && excerpt !== null && VERIFICATION_WORDS.test(excerpt);
}
