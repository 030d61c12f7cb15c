import type { RateLimitBucket } from '@parley/sdk';
import { DomainError } from '../domain/domain-error';
import {
  type BucketReport,
  consume,
  exhaustedBucket,
  type RateLimitState,
  report,
  usageOf,
} from '../domain/rate-limit-window';

/**
 * The /v1 rate limits (spec 8, DESIGN §2): each key's windows in the current state, counted by
 * the pure rule of `domain/rate-limit-window.ts`. The one place that reads or changes them: a
 * call's admission checks and charges here, `/_emulator/usage` reads here, a revoked key's
 * windows go here. Switched off (`rateLimits: false`, load tests), it refuses nothing, counts
 * nothing and builds no header.
 */
export class RateLimits {
  /** Whether limits apply (`--rate-limits`). */
  readonly enabled: boolean;
  readonly #windows: () => RateLimitState;

  /** `windows` is read on every call: a reset or load replaces the state. */
  constructor(enabled: boolean, windows: () => RateLimitState) {
    this.enabled = enabled;
    this.#windows = windows;
  }

  /** 429 `rate_limited` naming the first of `buckets` the key has used up; nothing is consumed. */
  refusal(keyId: string, buckets: readonly RateLimitBucket[], now: number): DomainError | undefined {
    if (!this.enabled) return undefined;
    const bucket = exhaustedBucket(this.#windows(), keyId, buckets, now);
    if (bucket === undefined) return undefined;
    return new DomainError(
      'rate_limited',
      `Rate limit of the ${bucket} bucket reached; retry after the window resets.`,
      { bucket },
    );
  }

  /** Counts one call against each of `buckets`. */
  charge(keyId: string, buckets: readonly RateLimitBucket[], now: number): void {
    if (this.enabled) consume(this.#windows(), keyId, buckets, now);
  }

  /** The `RateLimit-*` headers of one bucket; undefined when limits are off (no object is built). */
  headers(keyId: string, bucket: RateLimitBucket, now: number): Record<string, string> | undefined {
    if (!this.enabled) return undefined;
    const figures = report(this.#windows(), keyId, bucket, now);
    return {
      'ratelimit-limit': String(figures.limit),
      'ratelimit-remaining': String(figures.remaining),
      'ratelimit-reset': String(figures.resetSeconds),
    };
  }

  /** Whole seconds until the key's window of `bucket` resets (a 429's `Retry-After`). */
  resetSeconds(keyId: string, bucket: RateLimitBucket, now: number): number {
    return report(this.#windows(), keyId, bucket, now).resetSeconds;
  }

  /** The key's current window in every bucket (`/_emulator/usage`). */
  usage(keyId: string, now: number): Record<RateLimitBucket, BucketReport> {
    return usageOf(this.#windows(), keyId, now);
  }

  /** Forgets a key's windows (the key was revoked or its workspace reset). */
  forget(keyId: string): void {
    delete this.#windows()[keyId];
  }
}
