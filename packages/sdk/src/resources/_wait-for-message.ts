import { abortableSleep } from '../core/_abortable';
import type { APIPromise } from '../core/api-promise';
import { isRateLimitError } from '../errors/api-error';
import { ConfigurationError } from '../errors/configuration-error';
import { MessageFailedError, WaitForTimeoutError } from '../errors/wait-errors';
import type { Message } from '../wire/message';

/** Statuses `waitFor` can wait for, in the order a message moves through them. */
export type WaitForStatus = 'queued' | 'sent' | 'delivered' | 'read';

/** Options of `messages.waitFor`. */
export interface WaitForOptions {
  /** Return once the message has this status or a later one. */
  until: WaitForStatus;
  /** Give up after this many milliseconds (60 000). */
  timeout?: number | undefined;
  /** Milliseconds between polls (1 000); stretched when the rate-limit window runs low. */
  pollInterval?: number | undefined;
  /**
   * Stops the wait at once, during a poll or between two: `waitFor` rejects with an
   * `APIUserAbortError` whose `cause` is `signal.reason`.
   */
  signal?: AbortSignal | undefined;
  /** Called with the message after every poll, before `waitFor` settles on it. */
  onPoll?: ((message: Message) => void) | undefined;
  /** Called when a poll shows another status than the one before, and for the first one seen. */
  onStatus?: ((message: Message) => void) | undefined;
}

/** The waitable statuses in the order a message moves through them. */
const ORDER: readonly string[] = ['queued', 'sent', 'delivered', 'read'] satisfies WaitForStatus[];

/** The polling loop behind `messages.waitFor`; `getMessage` passes the signal to its request. */
export async function waitForMessage(
  getMessage: (id: string, signal: AbortSignal | undefined) => APIPromise<Message>,
  id: string,
  { until, timeout = 60_000, pollInterval = 1_000, signal, onPoll, onStatus }: WaitForOptions,
): Promise<Message> {
  const wanted = ORDER.indexOf(until);
  if (wanted < 0) throw new ConfigurationError(`waitFor: \`until\` must be one of ${ORDER.join(', ')}`);
  const deadline = Date.now() + timeout;
  let lastSeen: Message | undefined;

  for (;;) {
    let wait = pollInterval;
    try {
      // The request itself stops at once on the signal, and rejects with APIUserAbortError.
      const { data: message, rateLimit } = await getMessage(id, signal).withResponse();
      const { status } = message;
      const previous = lastSeen;
      lastSeen = message;
      onPoll?.(message);
      if (status !== previous?.status) onStatus?.(message);
      if (status === 'failed') throw new MessageFailedError(message);
      // An inbound message is `received`: as far along as it gets.
      if (status === 'received' || ORDER.indexOf(status) >= wanted) return message;
      // Spreads the calls left in the window over the time left, so polling never hits 429.
      if (rateLimit && rateLimit.remaining <= rateLimit.limit / 4) {
        wait = Math.max(wait, (rateLimit.reset * 1000) / (rateLimit.remaining || 1));
      }
    } catch (error) {
      if (!isRateLimitError(error)) throw error;
      wait = Math.max(wait, error.retryAfter ?? (error.reset ?? 1) * 1000);
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new WaitForTimeoutError(
        `Message ${id} did not reach ${until} within ${timeout} ms (${lastSeen ? `still ${lastSeen.status}` : 'never read'})`,
        lastSeen,
      );
    }
    await abortableSleep(Math.min(wait, left), signal);
  }
}
