import type { RateLimitBucket } from '@parley/sdk';
import { DomainError } from '../domain/domain-error';
import { exhaustedBucket } from '../domain/rate-limit-window';
import type { EmulatorCore } from './emulator-core';

/** 429 `rate_limited` when one of `buckets` of the key is exhausted (nothing is consumed). */
export function rejectIfExhausted(
  core: EmulatorCore,
  keyId: string,
  buckets: readonly RateLimitBucket[],
  now: number,
): void {
  if (!core.rateLimits) return;
  const bucket = exhaustedBucket(core.state.rate_limits, keyId, buckets, now);
  if (bucket) {
    throw new DomainError(
      'rate_limited',
      `Rate limit of the ${bucket} bucket reached; retry after the window resets.`,
      {
        bucket,
      },
    );
  }
}
