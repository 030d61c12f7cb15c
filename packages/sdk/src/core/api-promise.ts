import type { RateLimitInfo } from './rate-limit';

/** A result with the facts of the HTTP exchange that produced it. */
export interface APIResponse<Data> {
  data: Data;
  /** `req_…` from `X-Request-Id`: quote it when asking for support. */
  requestId: string | undefined;
  /** The rate-limit window of the call's bucket, or null when the answer had no `RateLimit-*` headers. */
  rateLimit: RateLimitInfo | null;
  /** The final HTTP response (body already read). */
  response: Response;
}

/**
 * The promise every SDK call returns: await it for the data, or call `.withResponse()` for
 * the data plus request id and rate-limit info.
 *
 * @example
 * const { data, requestId, rateLimit } = await parley.status.get().withResponse();
 */
export class APIPromise<Data> implements PromiseLike<Data> {
  readonly #exchange: Promise<APIResponse<Data>>;
  #data: Promise<Data> | undefined;

  constructor(exchange: Promise<APIResponse<Data>>) {
    this.#exchange = exchange;
  }

  /** The data together with `requestId`, `rateLimit` and the raw `response`. */
  withResponse(): Promise<APIResponse<Data>> {
    return this.#exchange;
  }

  // biome-ignore lint/suspicious/noThenProperty: this class is a thenable on purpose, like a Promise.
  then<Fulfilled = Data, Rejected = never>(
    onFulfilled?: ((data: Data) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Fulfilled | Rejected> {
    this.#data ??= this.#exchange.then((exchange) => exchange.data);
    return this.#data.then(onFulfilled, onRejected);
  }

  catch<Rejected = never>(
    onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Data | Rejected> {
    return this.then(undefined, onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<Data> {
    return this.then().finally(onFinally);
  }

  get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }
}
