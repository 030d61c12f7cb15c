import { path } from '../core/_path';
import type { APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/request-options';
import type { Message, SendMessageParams } from '../wire/message';
import { Resource } from './_resource';
import { type WaitForOptions, waitForMessage } from './_wait-for-message';

export type { WaitForOptions, WaitForStatus } from './_wait-for-message';

/** Per-call options of `messages.send`: {@link RequestOptions} and the idempotency key. */
export interface SendMessageOptions extends RequestOptions {
  /**
   * Makes the send safe to repeat: the same key with the same body returns the first answer
   * instead of sending twice (kept 24 h). Generated when omitted, and identical on every retry.
   * An `Idempotency-Key` in `headers` takes precedence, as every header there does.
   */
  idempotencyKey?: string | undefined;
}

/** Send messages and follow their status. */
export class MessagesResource extends Resource {
  /**
   * `POST /v1/messages` (scope `messages.send`, bucket `sends`): a template or a text message.
   *
   * @example
   * const message = await parley.messages.send({ type: 'text', connection_id, to: '+33612345678', text: 'Bonjour' });
   */
  send(params: SendMessageParams, options: SendMessageOptions = {}): APIPromise<Message> {
    return this.http.request(
      'messages',
      {
        method: 'post',
        json: params,
        headers: { 'idempotency-key': options.idempotencyKey ?? crypto.randomUUID() },
      },
      options,
    );
  }

  /** `GET /v1/messages/{id}` (scope `messages.read`): the message with its current status. */
  get(id: string, options?: RequestOptions): APIPromise<Message> {
    return this.http.request(() => path`messages/${id}`, {}, options);
  }

  /**
   * Polls the message until its status reaches `until` (or a later one) and returns it.
   * Polls every `pollInterval` ms, slower when the rate-limit window runs low. `onPoll` sees
   * every poll, `onStatus` every change of status; `signal` stops the wait at once. Its options
   * are the wait's own (`timeout` bounds the whole wait); each poll is a `get` with the client's
   * per-attempt timeout and retries.
   *
   * @example
   * const delivered = await parley.messages.waitFor(message.id, {
   *   until: 'delivered',
   *   timeout: 30_000,
   *   signal: AbortSignal.timeout(35_000),
   *   onStatus: (seen) => console.log(seen.status),
   * });
   * @throws {MessageFailedError} when the message fails.
   * @throws {WaitForTimeoutError} when `timeout` ms pass first.
   * @throws {APIUserAbortError} when `signal` fires; `cause` is its reason.
   */
  waitFor(id: string, options: WaitForOptions): Promise<Message> {
    return waitForMessage((messageId, signal) => this.get(messageId, { signal }), id, options);
  }
}
