import type { RateLimitBucket } from '@parley/sdk';

/** Per-minute limits of each bucket (spec 8). */
export const RATE_LIMITS: Readonly<Record<RateLimitBucket, number>> = {
  requests: 60,
  sends: 30,
  templates: 10,
};

const WINDOW_MS = 60_000;

/** Use of one key in its current window. */
export interface KeyWindow {
  /** Start of the window (ms), aligned to a clock minute. */
  start: number;
  used: Record<RateLimitBucket, number>;
}

/** Windows by key id. */
export type RateLimitState = Record<string, KeyWindow>;

/** What the `RateLimit-*` headers say about one bucket. */
export interface BucketReport {
  bucket: RateLimitBucket;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (at least 1). */
  resetSeconds: number;
}

/** The start of the one-minute window holding `now`: windows align to clock minutes (DESIGN §2). */
export function windowStart(now: number): number {
  return now - (now % WINDOW_MS);
}

function currentWindow(state: RateLimitState, keyId: string, now: number): KeyWindow {
  const start = windowStart(now);
  const existing = state[keyId];
  if (existing && existing.start === start) return existing;
  const fresh: KeyWindow = { start, used: { requests: 0, sends: 0, templates: 0 } };
  state[keyId] = fresh;
  return fresh;
}

/** The first of `buckets` that has no room left in the current window, if any. */
export function exhaustedBucket(
  state: RateLimitState,
  keyId: string,
  buckets: readonly RateLimitBucket[],
  now: number,
): RateLimitBucket | undefined {
  const window = currentWindow(state, keyId, now);
  return buckets.find((bucket) => window.used[bucket] >= RATE_LIMITS[bucket]);
}

/** Counts one call against each of `buckets`. */
export function consume(
  state: RateLimitState,
  keyId: string,
  buckets: readonly RateLimitBucket[],
  now: number,
): void {
  const window = currentWindow(state, keyId, now);
  for (const bucket of buckets) window.used[bucket]++;
}

/** The header figures of one bucket at `now`. */
export function report(
  state: RateLimitState,
  keyId: string,
  bucket: RateLimitBucket,
  now: number,
): BucketReport {
  const window = currentWindow(state, keyId, now);
  const limit = RATE_LIMITS[bucket];
  return {
    bucket,
    limit,
    remaining: Math.max(0, limit - window.used[bucket]),
    resetSeconds: Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000)),
  };
}

/** Current window counts of a key, for `/_emulator/usage`. */
export function usageOf(
  state: RateLimitState,
  keyId: string,
  now: number,
): Record<RateLimitBucket, BucketReport> {
  return {
    requests: report(state, keyId, 'requests', now),
    sends: report(state, keyId, 'sends', now),
    templates: report(state, keyId, 'templates', now),
  };
}
