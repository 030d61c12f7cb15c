import type { RateLimitBucket } from '@parley/sdk';
import { DAILY_SEND_LIMIT, sendsToday, utcDay } from '../domain/daily-cap';
import type { BucketReport } from '../domain/rate-limit-window';
import { findApplication } from './applications';
import type { EmulatorCore, StateParts } from './emulator-core';

/** One bucket's current window: `reset` in whole seconds. */
export interface BucketUsage {
  limit: number;
  used: number;
  remaining: number;
  reset: number;
}

/** `GET /_emulator/usage`: per key its current window counts per bucket, per workspace its sends today. */
export interface UsageView {
  object: 'usage';
  rate_limits_enabled: boolean;
  keys: {
    key_id: string;
    application_id: string;
    prefix: string;
    buckets: Record<RateLimitBucket, BucketUsage>;
  }[];
  workspaces: { workspace_id: string; day: string; sends_today: number; daily_limit: number }[];
}

/**
 * `GET /_emulator/usage`: per key the current window, per workspace the sends of today, each in its
 * workspace's time (a window read at another time would be a different window).
 */
export function usage(
  core: StateParts<'keys' | 'workspaces' | 'applications' | 'daily_sends'> &
    Pick<EmulatorCore, 'rateLimits' | 'nowFor' | 'nowIn'>,
  applicationId: string | undefined,
): UsageView {
  if (applicationId !== undefined) findApplication(core, applicationId);
  const keys = Object.values(core.state.keys).filter(
    (key) => applicationId === undefined || key.application_id === applicationId,
  );
  const workspaceIds = new Set(
    applicationId === undefined
      ? Object.keys(core.state.workspaces)
      : [core.state.applications[applicationId]!.workspace_id],
  );
  return {
    object: 'usage' as const,
    rate_limits_enabled: core.rateLimits.enabled,
    keys: keys.map((key) => ({
      key_id: key.id,
      application_id: key.application_id,
      prefix: key.prefix,
      buckets: bucketUsage(core.rateLimits.usage(key.id, core.nowFor(key.application_id))),
    })),
    workspaces: [...workspaceIds].map((workspaceId) => {
      const now = core.nowIn(workspaceId);
      return {
        workspace_id: workspaceId,
        day: utcDay(now),
        sends_today: sendsToday(core.state.daily_sends, workspaceId, now),
        daily_limit: DAILY_SEND_LIMIT,
      };
    }),
  };
}

function bucketUsage(reports: Record<RateLimitBucket, BucketReport>): Record<RateLimitBucket, BucketUsage> {
  const figures = ({ limit, remaining, resetSeconds }: BucketReport): BucketUsage => ({
    limit,
    used: limit - remaining,
    remaining,
    reset: resetSeconds,
  });
  return {
    requests: figures(reports.requests),
    sends: figures(reports.sends),
    templates: figures(reports.templates),
  };
}
