import type { ScheduledJob, Scheduler } from '../clock/clock-types';
import { stepsOf } from '../domain/message-lifecycle';
import type { MessageRecord } from '../domain/records';

/** Ids waiting for one step (index and age), in acceptance order, with the one timer of their head. */
interface StepLine {
  index: number;
  age: number;
  ids: string[];
  head: number;
  job: ScheduledJob | undefined;
  jobAt: number;
  /** After a failed announcement (the data dir could not be written): no new try before this time. */
  heldUntil: number;
}

/** Messages announced together: one journal write for all of them, not one per message. */
const ANNOUNCE_BATCH = 256;
/** Emulator time before steps that could not be made durable are tried again. */
export const ANNOUNCE_RETRY_MS = 1_000;

/**
 * The status timers of every message, without one timer per message: messages whose next step has
 * the same index and age fall due in acceptance order, so they wait in one acceptance-ordered line
 * per (index, age), and only the head of each line holds a scheduler job. 100,000 queued messages
 * cost 100,000 array slots, not 100,000 closures. (A few lines exist: the sandbox, live and magic
 * recipients' schedules share most steps.)
 */
export class MessageTimers {
  readonly #lines = new Map<string, StepLine>();

  constructor(
    private readonly scheduler: Scheduler,
    private readonly find: (id: string) => MessageRecord | undefined,
    /** Announces the next step of each record; false when nothing could be done (try again later). */
    private readonly announce: (records: MessageRecord[]) => boolean,
    private readonly now: () => number,
  ) {}

  /** Queues the next unannounced step of a message (records must arrive in acceptance order per line). */
  add(record: MessageRecord): void {
    const index = record.announced;
    const step = stepsOf(record)[index];
    if (!step) return;
    const line = this.#line(index, step.age);
    line.ids.push(record.message.id);
    this.#arm(line);
  }

  /** Re-queues the steps of loaded messages, oldest first. */
  restore(records: Iterable<MessageRecord>): void {
    const pending = [...records].filter((record) => stepsOf(record)[record.announced]);
    pending.sort((a, b) => a.accepted_at - b.accepted_at);
    for (const record of pending) this.add(record);
  }

  #line(index: number, age: number): StepLine {
    const name = `${index}@${age}`;
    let line = this.#lines.get(name);
    if (!line) {
      line = {
        index,
        age,
        ids: [],
        head: 0,
        job: undefined,
        jobAt: Number.NaN,
        heldUntil: Number.NEGATIVE_INFINITY,
      };
      this.#lines.set(name, line);
    }
    return line;
  }

  /** The record of an id if it still waits in this line (its next step is the line's). */
  #waiting(line: StepLine, id: string): MessageRecord | undefined {
    const record = this.find(id);
    return record && record.announced === line.index && stepsOf(record)[line.index]?.age === line.age
      ? record
      : undefined;
  }

  /** The head's due time, or undefined when the line is empty (dropping ids that no longer wait). */
  #headDue(line: StepLine): number | undefined {
    while (line.head < line.ids.length) {
      const record = this.#waiting(line, line.ids[line.head]!);
      if (record) return record.accepted_at + line.age;
      line.head++;
    }
    return undefined;
  }

  #arm(line: StepLine): void {
    const due = this.#headDue(line);
    if (due === undefined) return;
    const at = Math.max(due, line.heldUntil);
    if (line.jobAt === at) return;
    line.job?.cancel();
    line.jobAt = at;
    line.job = this.scheduler.schedule(at, () => this.#run(line));
  }

  #run(line: StepLine): void {
    line.job = undefined;
    line.jobAt = Number.NaN;
    const now = this.now();
    for (let batch = this.#dueBatch(line, now); batch.records.length > 0; ) {
      let done: boolean;
      try {
        done = this.announce(batch.records);
      } catch (error) {
        // A failure must not stall the line behind it: steps that did not move are dropped, reported.
        console.error('[parley-emulator] status event failed:', error);
        done = true;
      }
      if (!done) {
        // Nothing was announced (the data dir could not be written): the same steps, later.
        line.heldUntil = now + ANNOUNCE_RETRY_MS;
        break;
      }
      line.heldUntil = Number.NEGATIVE_INFINITY;
      line.head = batch.end;
      for (const record of batch.records) if (record.announced > line.index) this.add(record);
      batch = this.#dueBatch(line, now);
    }
    if (line.head > 1024 && line.head * 2 > line.ids.length) {
      line.ids = line.ids.slice(line.head);
      line.head = 0;
    }
    this.#arm(line);
  }

  /** Up to {@link ANNOUNCE_BATCH} records due by `now` from the head, and the index after them. */
  #dueBatch(line: StepLine, now: number): { records: MessageRecord[]; end: number } {
    const records: MessageRecord[] = [];
    let end = line.head;
    for (; end < line.ids.length && records.length < ANNOUNCE_BATCH; end++) {
      const record = this.#waiting(line, line.ids[end]!);
      if (!record) continue;
      if (record.accepted_at + line.age > now) break;
      records.push(record);
    }
    return { records, end };
  }
}
