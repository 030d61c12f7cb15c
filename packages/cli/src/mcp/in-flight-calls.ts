import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * The requests of `parley mcp` whose handler is still running, counted by wrapping every handler
 * it registers (tools, resources, prompts): what a closed stdin waits for, and what a stop has to
 * answer with an error.
 */
export class InFlightCalls {
  // One entry per running handler: a client may reuse an id, each call is answered.
  readonly #running = new Set<{ id: RequestId | undefined }>();
  #waiters: (() => void)[] = [];

  /**
   * The handler, counted while it runs. Every MCP handler gets the request's `extra` (with its
   * `requestId`) as its last argument.
   */
  wrap<Handler extends (...args: never[]) => unknown>(handler: Handler): Handler {
    const wrapped = async (...args: never[]) => {
      const extra = args.at(-1) as { requestId: RequestId } | undefined;
      const call = { id: extra?.requestId };
      this.#running.add(call);
      try {
        return await handler(...args);
      } finally {
        this.#running.delete(call);
        if (this.#running.size === 0) for (const wake of this.#waiters.splice(0)) wake();
      }
    };
    return wrapped as unknown as Handler;
  }

  /** How many handlers are running. */
  get size(): number {
    return this.#running.size;
  }

  /** The ids of the requests whose handler is running, one per call. */
  ids(): RequestId[] {
    return [...this.#running].flatMap(({ id }) => (id === undefined ? [] : [id]));
  }

  /** Settles once no handler is running (at once when none is). */
  idle(): Promise<void> {
    if (this.#running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}
