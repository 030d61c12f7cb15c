/**
 * One queued job, also its own cancel handle (no closure per job: a busy emulator queues hundreds
 * of thousands). `seq` keeps jobs due at the same time in scheduling order.
 */
export class QueuedJob {
  cancelled = false;

  constructor(
    readonly at: number,
    readonly seq: number,
    readonly run: () => void | Promise<void>,
  ) {}

  cancel(): void {
    this.cancelled = true;
  }
}

/** A binary min-heap of jobs by (due time, scheduling order), with lazy cancellation. */
export class JobQueue {
  #heap: QueuedJob[] = [];
  #seq = 0;

  push(at: number, run: () => void | Promise<void>): QueuedJob {
    const job = new QueuedJob(at, this.#seq++, run);
    this.#heap.push(job);
    this.#siftUp(this.#heap.length - 1);
    return job;
  }

  clear(): void {
    for (const job of this.#heap) job.cancelled = true;
    this.#heap = [];
  }

  peekTime(): number | undefined {
    this.#dropCancelled();
    return this.#heap[0]?.at;
  }

  /** Removes and returns the earliest job if it is due at or before `time`. */
  popDue(time: number): QueuedJob | undefined {
    const at = this.peekTime();
    return at !== undefined && at <= time ? this.#pop() : undefined;
  }

  /** Removes and returns the earliest job if it is due exactly at `at`. */
  popAt(at: number): QueuedJob | undefined {
    return this.peekTime() === at ? this.#pop() : undefined;
  }

  #dropCancelled(): void {
    while (this.#heap[0]?.cancelled) this.#pop();
  }

  #pop(): QueuedJob | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      this.#siftDown(0);
    }
    return top;
  }

  #before(a: QueuedJob, b: QueuedJob): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  #siftUp(index: number): void {
    const heap = this.#heap;
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.#before(heap[child]!, heap[parent]!)) return;
      [heap[child], heap[parent]] = [heap[parent]!, heap[child]!];
      child = parent;
    }
  }

  #siftDown(index: number): void {
    const heap = this.#heap;
    let parent = index;
    for (;;) {
      const left = parent * 2 + 1;
      const right = left + 1;
      let first = parent;
      if (left < heap.length && this.#before(heap[left]!, heap[first]!)) first = left;
      if (right < heap.length && this.#before(heap[right]!, heap[first]!)) first = right;
      if (first === parent) return;
      [heap[parent], heap[first]] = [heap[first]!, heap[parent]!];
      parent = first;
    }
  }
}
