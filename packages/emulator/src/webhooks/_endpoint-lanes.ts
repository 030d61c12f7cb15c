/**
 * Caps how many attempts run at once per endpoint; the rest wait in arrival order. A burst of
 * events then reuses a few kept-alive sockets instead of opening one per delivery, and since
 * each endpoint has its own lanes, a slow receiver only ever queues its own deliveries.
 */
export class EndpointLanes {
  readonly #limit: number;
  readonly #active = new Map<string, number>();
  readonly #waiting = new Map<string, Array<() => void>>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Takes a lane: `undefined` when one is free now (so the caller stays synchronous), else a promise. */
  acquire(endpointId: string): Promise<void> | undefined {
    const active = this.#active.get(endpointId) ?? 0;
    if (active < this.#limit) {
      this.#active.set(endpointId, active + 1);
      return undefined;
    }
    return new Promise((resolve) => {
      const queue = this.#waiting.get(endpointId) ?? [];
      queue.push(resolve);
      this.#waiting.set(endpointId, queue);
    });
  }

  /** Gives the lane to the next waiter, or frees it. */
  release(endpointId: string): void {
    const queue = this.#waiting.get(endpointId);
    const next = queue?.shift();
    if (queue?.length === 0) this.#waiting.delete(endpointId);
    if (next) {
      next();
      return;
    }
    const active = (this.#active.get(endpointId) ?? 1) - 1;
    if (active > 0) this.#active.set(endpointId, active);
    else this.#active.delete(endpointId);
  }
}
