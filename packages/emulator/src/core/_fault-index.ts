import { type FaultMatch, type FaultTarget, faultMatches } from '../domain/faults';

/** A fault with uses left, in the index, with its place in creation order. */
interface IndexedFault<Fault> {
  fault: Fault;
  order: number;
}

const ANY_METHOD = '*';

const withoutTrailingSlash = (path: string) => (path.endsWith('/') ? path.slice(0, -1) : path);

/** Whether the fault's path is one exact path (no `*` segment): most faults are. */
const exactPath = (path: string) => !path.split('/').includes('*');

/**
 * The faults that can still match, found without scanning them all: a fault on one exact path is
 * filed under its method and path, so a request looks at the faults of its own path and at the
 * few with a `*` segment or no path. 20,000 faults on other paths made 2,000 requests take 22 s
 * with a scan of every fault; the figure with the index is in `pnpm bench` (issue 23).
 * The first match in creation order wins, as with a scan.
 */
export class FaultIndex<Fault extends FaultMatch & { remaining: number }> {
  #byPath = new Map<string, IndexedFault<Fault>[]>();
  #scanned: IndexedFault<Fault>[] = [];
  #order = 0;

  add(fault: Fault): void {
    const entry = { fault, order: this.#order++ };
    if (fault.path === null || !exactPath(fault.path)) {
      this.#scanned.push(entry);
      return;
    }
    const key = `${fault.method ?? ANY_METHOD} ${withoutTrailingSlash(fault.path)}`;
    const list = this.#byPath.get(key);
    if (list) list.push(entry);
    else this.#byPath.set(key, [entry]);
  }

  /** Forgets every fault (the table then adds back those it keeps). */
  clear(): void {
    this.#byPath = new Map();
    this.#scanned = [];
  }

  /** The earliest-created fault with uses left that matches the request. */
  first(target: FaultTarget): Fault | undefined {
    const path = withoutTrailingSlash(target.path);
    let best: IndexedFault<Fault> | undefined;
    for (const list of [
      this.#byPath.get(`${target.method.toUpperCase()} ${path}`),
      this.#byPath.get(`${ANY_METHOD} ${path}`),
      this.#scanned,
    ]) {
      const found = list?.find((entry) => entry.fault.remaining > 0 && faultMatches(entry.fault, target));
      if (found && (!best || found.order < best.order)) best = found;
    }
    return best?.fault;
  }

  /** Drops a fault that was deleted or used up, so it is never looked at again. */
  remove(fault: Fault): void {
    const key =
      fault.path !== null && exactPath(fault.path)
        ? `${fault.method ?? ANY_METHOD} ${withoutTrailingSlash(fault.path)}`
        : undefined;
    const list = key === undefined ? this.#scanned : this.#byPath.get(key);
    const index = list?.findIndex((entry) => entry.fault === fault) ?? -1;
    if (!list || index === -1) return;
    list.splice(index, 1);
    if (key !== undefined && list.length === 0) this.#byPath.delete(key);
  }
}
