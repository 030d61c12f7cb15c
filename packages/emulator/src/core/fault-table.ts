import { DomainError } from '../domain/domain-error';
import { type FaultInput, type FaultTarget, parseFaultInput } from '../domain/faults';
import { formatTimestamp, newId } from '../domain/ids';
import type { EmulatorState } from '../store/state';
import { FaultIndex } from './_fault-index';

/** A fault as `GET /_emulator/faults` lists it. */
export interface FaultView extends FaultInput {
  object: 'fault';
  id: string;
  /** Matching requests that will still get it; 0 once used up (it stays listed until deleted). */
  remaining: number;
  /** The workspace of `key_id`'s key, or null for a fault not tied to one key. */
  workspace_id: string | null;
  created_at: string;
}

/**
 * The injected faults of `/_emulator/faults`, in creation order: the first that matches a /v1
 * request answers it. Kept in memory only (never in `--data-dir`): they are test set-up.
 */
export class FaultTable {
  #faults: FaultView[] = [];
  readonly #index = new FaultIndex<FaultView>();
  #remaining = 0;
  #released = new AbortController();

  /** Whether any fault can still match: the /v1 pipeline looks no further when none can. */
  get active(): boolean {
    return this.#remaining > 0;
  }

  /** Aborts when the emulator closes, so hung and delayed requests end. */
  get released(): AbortSignal {
    return this.#released.signal;
  }

  add(fault: FaultView): FaultView {
    this.#faults.push(fault);
    this.#index.add(fault);
    this.#remaining += fault.remaining;
    return { ...fault };
  }

  list(): FaultView[] {
    return this.#faults.map((fault) => ({ ...fault }));
  }

  /** Removes one fault (404 when unknown). */
  delete(id: string): void {
    const index = this.#faults.findIndex((fault) => fault.id === id);
    if (index === -1) throw new DomainError('not_found', `No fault ${id}.`, { fault_id: id });
    const [deleted] = this.#faults.splice(index, 1);
    this.#remaining -= deleted!.remaining;
    this.#index.remove(deleted!);
  }

  /** Removes every fault, or those `which` selects (a workspace's, on its reset). */
  clear(which: (fault: FaultView) => boolean = () => true): void {
    this.#faults = this.#faults.filter((fault) => !which(fault));
    this.#remaining = this.#faults.reduce((sum, fault) => sum + fault.remaining, 0);
    this.#index.clear();
    for (const fault of this.#faults) if (fault.remaining > 0) this.#index.add(fault);
  }

  /** The first fault with uses left that matches the request, one use taken; undefined when none does. */
  take(target: FaultTarget): FaultView | undefined {
    const fault = this.#index.first(target);
    if (!fault) return undefined;
    fault.remaining--;
    this.#remaining--;
    if (fault.remaining === 0) this.#index.remove(fault);
    return { ...fault };
  }

  /** Ends every hang and delay in progress (the emulator is closing). */
  close(): void {
    this.#released.abort();
  }
}

/** What {@link createFault} works with: the keys and applications a fault may name, the table, time. */
export interface FaultDeps {
  readonly state: Pick<EmulatorState, 'keys' | 'applications'>;
  readonly faults: FaultTable;
  now(): number;
}

/** `POST /_emulator/faults`: checks the body and the key it names, then adds the fault. */
export function createFault(core: FaultDeps, input: unknown): FaultView {
  const parsed = parseFaultInput(input);
  let workspaceId: string | null = null;
  if (parsed.key_id !== null) {
    const key = core.state.keys[parsed.key_id];
    if (!key) throw new DomainError('not_found', `No key ${parsed.key_id}.`, { field: 'key_id' });
    workspaceId = core.state.applications[key.application_id]?.workspace_id ?? null;
  }
  return core.faults.add({
    object: 'fault',
    id: newId(),
    ...parsed,
    remaining: parsed.times,
    workspace_id: workspaceId,
    created_at: formatTimestamp(core.now()),
  });
}
