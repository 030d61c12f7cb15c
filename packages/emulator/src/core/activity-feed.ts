import type { Message, WebhookEvent } from '@parley/sdk';
import type { ChaosKind } from '../domain/webhook-chaos';
import type { DeliveryView } from '../webhooks/webhook-service';
import { maskSecrets, maskSecretsIn } from './_mask-secrets';

/** Fields every activity item has. */
interface ActivityBase {
  /** Position in the feed, increasing; the SSE `id`, so a client resumes with `Last-Event-ID`. */
  seq: number;
  /** Emulator time of the item, ISO. */
  at: string;
  /** The applications it concerns (empty: the whole emulator). */
  application_ids: string[];
}

/** One answered /v1 request: never the key, only its display prefix. */
export interface RequestActivity extends ActivityBase {
  kind: 'request';
  method: string;
  path: string;
  status: number;
  request_id: string;
  key_prefix: string | null;
  duration_ms: number;
  /** The id of the injected fault that answered it (`/_emulator/faults`); status 0 when none went out. */
  fault?: string;
  /** The W3C `traceparent` it carried when well formed, else null (`http/_trace-context.ts`); absent in items imported from before it. */
  traceparent?: string | null;
  /** Its `tracestate` when well formed beside a valid `traceparent`, else null. */
  tracestate?: string | null;
}

/** One answered control-API change (POST, PATCH, DELETE under `/_emulator`); never its body. */
export interface ControlActivity extends ActivityBase {
  kind: 'control';
  method: string;
  path: string;
  status: number;
  request_id: string;
  duration_ms: number;
}

/** An event as it was emitted (the envelope its deliveries carry). */
export interface EventActivity extends ActivityBase {
  kind: 'event';
  type: WebhookEvent['type'];
  event: WebhookEvent;
}

/** A message accepted, received, or moved to a new status. */
export interface MessageActivity extends ActivityBase {
  kind: 'message';
  status: Message['status'];
  message: Message;
}

/** A delivery queued, or one of its attempts done (the delivery as it is after it). */
export interface DeliveryActivity extends ActivityBase {
  kind: 'delivery';
  status: DeliveryView['status'];
  delivery: DeliveryView;
  /** Set when the item is a chaos copy's attempt (the delivery's last attempt): which kind. */
  chaos?: ChaosKind;
}

/** The clock moved by an advance. */
export interface ClockActivity extends ActivityBase {
  kind: 'clock';
  now: string;
  mode: 'real' | 'frozen';
  /** Set when a workspace's own clock moved (`POST /workspaces/{id}/clock/advance`). */
  workspace_id?: string;
}

/** The state went back to its seed; the feed was emptied. */
export interface ResetActivity extends ActivityBase {
  kind: 'reset';
  /** Set for the reset of one workspace (`POST /workspaces/{id}/reset`): the feed keeps its items. */
  workspace_id?: string;
}

/** What `GET /_emulator/stream` carries. */
export type ActivityItem =
  | RequestActivity
  | ControlActivity
  | EventActivity
  | MessageActivity
  | DeliveryActivity
  | ClockActivity
  | ResetActivity;

/** An item before the feed numbers and dates it. */
export type ActivityDraft = ActivityItem extends infer Item
  ? Item extends ActivityItem
    ? Omit<Item, 'seq' | 'at'>
    : never
  : never;

/**
 * A published item. Numbered and timed when published; masked and dated when first read, its JSON
 * when first sent: a request costs one small object until someone reads the feed (issue 23).
 */
export class ActivityEntry {
  /** The item's JSON, built by {@link ActivityFeed.json} when first needed. */
  json: string | undefined = undefined;
  #draft: ActivityDraft | undefined;
  #item: ActivityItem | undefined = undefined;

  constructor(
    /** The item's position in the feed (its `seq`). */
    readonly seq: number,
    draft: ActivityDraft,
    /** When it happened, ms since the epoch (its `at`). */
    readonly atMs: number,
  ) {
    this.#draft = draft;
  }

  /** The item as anyone reads it: secrets masked, numbered, dated. Built once. */
  get item(): ActivityItem {
    if (this.#item === undefined) {
      const at = new Date(this.atMs).toISOString();
      this.#item = { ...maskSecretsIn(this.#draft!), seq: this.seq, at } as ActivityItem;
      // Only the masked item is kept from now on.
      this.#draft = undefined;
    }
    return this.#item;
  }
}

/** Items kept for `GET /_emulator/activity` and for clients resuming a stream. */
export const KEPT_ACTIVITY = 1_000;
/** Trimmed in batches: one splice per 100 items, not a shift per item. */
const TRIM_BATCH = 100;

/**
 * What happens in the emulator, as it happens: /v1 requests, control changes, events, message
 * statuses and delivery attempts. Keeps the last {@link KEPT_ACTIVITY} items (up to
 * {@link TRIM_BATCH} more between trims); listeners (the `/_emulator/stream` responses) are told
 * of each one as it is published and read it, or later ones, with {@link entryAfter}. Secrets are
 * masked when an item is first read (the history, a stream), so every item anyone reads is masked;
 * publishing does only what cannot wait: numbering and timing it. Most items are never read: under
 * `GET /v1/status` load, masking and dating each at publish was ~6 % of the emulator's CPU profile.
 */
export class ActivityFeed {
  readonly #entries: ActivityEntry[] = [];
  readonly #listeners = new Set<(entry: ActivityEntry) => void>();
  #seq = 0;

  /** `now` dates an item: in its workspace's time (its own clock, or the global one). */
  constructor(private readonly now: (draft: ActivityDraft) => number) {}

  /** Numbers, times, keeps and hands out one item (masked when first read); returns its entry. */
  publish(draft: ActivityDraft): ActivityEntry {
    const entry = new ActivityEntry(++this.#seq, draft, this.now(draft));
    this.#entries.push(entry);
    if (this.#entries.length >= KEPT_ACTIVITY + TRIM_BATCH) {
      this.#entries.splice(0, this.#entries.length - KEPT_ACTIVITY);
    }
    for (const listener of this.#listeners) listener(entry);
    return entry;
  }

  /** Calls `listener` with every item published from now on; returns the unsubscription. */
  subscribe(listener: (entry: ActivityEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** How many listeners are subscribed (open streams). */
  get listenerCount(): number {
    return this.#listeners.size;
  }

  /** The seq of the newest item published (0 before the first). */
  get lastSeq(): number {
    return this.#seq;
  }

  /**
   * The oldest kept item after `seq`, or undefined when none is newer. Its seq is `seq + 1`
   * unless the items between were trimmed or cleared: a reader can tell what it missed.
   */
  entryAfter(seq: number): ActivityEntry | undefined {
    const oldest = this.#entries[0];
    if (oldest === undefined) return undefined;
    // Kept seqs are consecutive (a trim or a clear drops a prefix): no search needed.
    return this.#entries[Math.max(0, seq + 1 - oldest.seq)];
  }

  /** The kept items, newest first. */
  newestFirst(): ActivityEntry[] {
    return this.#entries.slice(-KEPT_ACTIVITY).reverse();
  }

  /**
   * Makes `items` (masked, oldest first) the kept history: an import. They are numbered to end at
   * the larger of `lastSeq` and the feed's own last seq (their own numbers when the feed is behind,
   * as in a new emulator), so kept seqs stay consecutive and a resuming client never goes back.
   */
  restore(items: readonly ActivityItem[], lastSeq: number): void {
    const kept = items.slice(-KEPT_ACTIVITY);
    const end = Math.max(this.#seq, lastSeq);
    this.#entries.length = 0;
    for (const [index, { seq: _seq, at, ...draft }] of kept.entries()) {
      this.#entries.push(
        new ActivityEntry(end - kept.length + 1 + index, draft as ActivityDraft, Date.parse(at)),
      );
    }
    this.#seq = end;
  }

  /** Forgets what was kept (a reset); numbering goes on, so a resuming client never skips. */
  clear(): void {
    this.#entries.length = 0;
  }

  /** The JSON of an item. Masked again as text, for what changed in a live record it points to. */
  json(entry: ActivityEntry): string {
    entry.json ??= maskSecrets(JSON.stringify(entry.item));
    return entry.json;
  }
}
