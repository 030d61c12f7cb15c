import type { ScheduledJob, Scheduler } from '../clock/clock-types';
import { stepsOf } from '../domain/message-lifecycle';
import type { MessageRecord } from '../store/state';

/** Ids waiting for one step index, in acceptance order, with the one timer of their head. */
interface StepLine {
  ids: string[];
  head: number;
  job: ScheduledJob | undefined;
  jobAt: number;
}

/**
 * The status timers of every message, without one timer per message: step k of every message
 * falls due at acceptance + the same age, so messages wait in one acceptance-ordered line per
 * step index, and only the head of each line holds a scheduler job. 100,000 queued messages cost
 * 100,000 array slots, not 100,000 closures.
 */
export class MessageTimers {
  readonly #lines: StepLine[] = [];

  constructor(
    private readonly scheduler: Scheduler,
    private readonly find: (id: string) => MessageRecord | undefined,
    private readonly announce: (record: MessageRecord) => void,
    private readonly now: () => number,
  ) {}

  /** Queues the next unannounced step of a message (records must arrive in acceptance order per line). */
  add(record: MessageRecord): void {
    const index = record.announced;
    if (!stepsOf(record)[index]) return;
    this.#line(index).ids.push(record.message.id);
    this.#arm(index);
  }

  /** Re-queues the steps of loaded messages, oldest first. */
  restore(records: Iterable<MessageRecord>): void {
    const pending = [...records].filter((record) => stepsOf(record)[record.announced]);
    pending.sort((a, b) => a.accepted_at - b.accepted_at);
    for (const record of pending) this.add(record);
  }

  #line(index: number): StepLine {
    for (let missing = this.#lines.length; missing <= index; missing++) {
      this.#lines.push({ ids: [], head: 0, job: undefined, jobAt: Number.NaN });
    }
    return this.#lines[index]!;
  }

  /** The head's due time, or undefined when the line is empty (dropping ids that no longer wait). */
  #headDue(line: StepLine, index: number): number | undefined {
    while (line.head < line.ids.length) {
      const record = this.find(line.ids[line.head]!);
      const step = record && record.announced === index ? stepsOf(record)[index] : undefined;
      if (record && step) return record.accepted_at + step.age;
      line.head++;
    }
    return undefined;
  }

  #arm(index: number): void {
    const line = this.#line(index);
    const due = this.#headDue(line, index);
    if (due === undefined || line.jobAt === due) return;
    line.job?.cancel();
    line.jobAt = due;
    line.job = this.scheduler.schedule(due, () => this.#run(index));
  }

  #run(index: number): void {
    const line = this.#line(index);
    line.job = undefined;
    line.jobAt = Number.NaN;
    const now = this.now();
    for (
      let due = this.#headDue(line, index);
      due !== undefined && due <= now;
      due = this.#headDue(line, index)
    ) {
      const record = this.find(line.ids[line.head++]!)!;
      try {
        this.announce(record);
      } catch (error) {
        // One message's failure must not stall the line behind it.
        console.error('[parley-emulator] status event failed:', error);
      }
      this.add(record);
    }
    if (line.head > 1024 && line.head * 2 > line.ids.length) {
      line.ids = line.ids.slice(line.head);
      line.head = 0;
    }
    this.#arm(index);
  }
}
