import { SCOPES } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import type { KeyRecord } from '../domain/api-keys';
import { createDictionary } from '../domain/dictionary';
import { DomainError } from '../domain/domain-error';
import type { RateLimitState } from '../domain/rate-limit-window';
import type { ApplicationRecord } from '../domain/records';
import { PersistenceError } from '../store/data-dir-errors';
import { createEmptyState } from '../store/state';
import {
  admit,
  type CallRule,
  callerOf,
  chargeAnswered,
  chargeRefused,
  holdIdempotencyKey,
  type KeyDirectory,
  REQUESTS_CHARGE,
  refusalOf,
  revokedSince,
} from './admission';
import type { Caller } from './keys';
import { RateLimits } from './rate-limits';
import { SendIdempotency } from './send-idempotency';

const MINUTE = Date.UTC(2026, 9, 14, 9, 30); // 09:30:00.000
const NOW = MINUTE + 15_000; // 45 s before the window resets
const SEND_URL = { pathname: '/v1/messages' };

function application(id: string, environment: 'sandbox' | 'live'): ApplicationRecord {
  return { id, workspace_id: 'ws', name: id, environment, created_at: '2026-10-14T09:00:00Z' };
}

function keyOf(id: string, applicationId: string, scopes: readonly string[] = SCOPES): KeyRecord {
  return {
    id,
    application_id: applicationId,
    hash: `hash-${id}`,
    prefix: id,
    scopes: [...scopes],
    created_at: '',
  };
}

/** A key directory holding `tokens` (presented key → record) and the applications given. */
function directory(tokens: Record<string, KeyRecord>, applications: ApplicationRecord[]): KeyDirectory {
  const byToken = new Map(Object.entries(tokens));
  const state = { keys: createDictionary<KeyRecord>(), applications: createDictionary<ApplicationRecord>() };
  for (const key of byToken.values()) state.keys[key.id] = key;
  for (const app of applications) state.applications[app.id] = app;
  return { findKey: (presented) => byToken.get(presented), state };
}

const SANDBOX = application('app-sandbox', 'sandbox');
const LIVE = application('app-live', 'live');
const sandboxCaller = (scopes: readonly string[] = SCOPES): Caller => ({
  key: keyOf('key-1', SANDBOX.id, scopes),
  application: SANDBOX,
});
const liveCaller = (scopes: readonly string[] = SCOPES): Caller => ({
  key: keyOf('key-1', LIVE.id, scopes),
  application: LIVE,
});

/** Rate limits (on unless said) over windows the test reads. */
function limits(enabled = true) {
  const windows: RateLimitState = {};
  return { windows, limits: new RateLimits(enabled, () => windows) };
}

const use = (rateLimits: RateLimits, buckets: Parameters<RateLimits['charge']>[1], times: number) => {
  for (let call = 0; call < times; call++) rateLimits.charge('key-1', buckets, NOW);
};

describe('admit: who calls (spec 5.2)', () => {
  const key = keyOf('key-1', SANDBOX.id);
  const keys = directory({ prl_sandbox_good: key }, [SANDBOX]);

  test.each([null, '', 'prl_sandbox_good', 'Basic prl_sandbox_good', 'Bearer'])(
    'Authorization %j: 401 missing_api_key',
    (header) => {
      const admission = admit(keys, header);
      expect(admission.ok).toBe(false);
      expect(!admission.ok && admission.error).toMatchObject({
        code: 'missing_api_key',
        status: 401,
        message: 'Send your API key as "Authorization: Bearer <API_KEY>".',
      });
    },
  );

  test('an unknown key: 401 invalid_api_key', () => {
    const admission = admit(keys, 'Bearer prl_sandbox_other');
    expect(!admission.ok && admission.error).toMatchObject({
      code: 'invalid_api_key',
      status: 401,
      message: 'This API key is unknown or revoked.',
    });
  });

  test('a known key whose application is gone: 401 invalid_api_key', () => {
    const admission = admit(directory({ prl_sandbox_good: key }, []), 'Bearer prl_sandbox_good');
    expect(!admission.ok && admission.error).toMatchObject({ code: 'invalid_api_key', status: 401 });
  });

  test('a known key: the caller, its key and its application', () => {
    expect(admit(keys, 'Bearer prl_sandbox_good')).toEqual({ ok: true, key, application: SANDBOX });
    expect(admit(keys, 'bearer   prl_sandbox_good  ')).toEqual({ ok: true, key, application: SANDBOX });
  });

  test("callerOf: a known key's caller while its application exists", () => {
    expect(callerOf(keys, key)).toEqual({ key, application: SANDBOX });
    expect(callerOf(directory({}, []), key)).toBeUndefined();
  });

  test('revokedSince: undefined while the key stands; 401 invalid_api_key once it is gone', () => {
    const caller = { key, application: SANDBOX };
    expect(revokedSince(keys, caller)).toBeUndefined();
    delete keys.state.keys[key.id];
    expect(revokedSince(keys, caller)).toMatchObject({
      code: 'invalid_api_key',
      status: 401,
      message: 'This API key is unknown or revoked.',
    });
  });

  test("holdIdempotencyKey: the hold is the caller's key's, so a second send with it is busy", () => {
    const idempotency = new SendIdempotency(createEmptyState);
    const first = holdIdempotencyKey(idempotency, sandboxCaller(), 'order-42');
    expect(first).toEqual({ header: 'order-42', slot: 'key-1\norder-42', busy: false });
    expect(holdIdempotencyKey(idempotency, sandboxCaller(), 'order-42').busy).toBe(true);
  });
});

describe('refusalOf: why an admitted call may not run, in the documented order', () => {
  const sendRule: CallRule = { scope: 'messages.send', bucket: 'sends' };
  const eventRule: CallRule = { scope: 'sandbox.events.create', sandboxOnly: true };

  test('a call with room, the sandbox and its scope: no refusal', () => {
    expect(refusalOf(limits().limits, sandboxCaller(), eventRule, NOW, 'POST', SEND_URL)).toBeUndefined();
    expect(refusalOf(limits().limits, sandboxCaller([]), {}, NOW, 'GET', SEND_URL)).toBeUndefined();
  });

  test('the 60th request passes, the 61st is 429 requests', () => {
    const { limits: rateLimits } = limits();
    use(rateLimits, ['requests'], 59);
    expect(refusalOf(rateLimits, sandboxCaller(), {}, NOW, 'GET', SEND_URL)).toBeUndefined();
    use(rateLimits, ['requests'], 1);
    expect(refusalOf(rateLimits, sandboxCaller(), {}, NOW, 'GET', SEND_URL)).toMatchObject({
      code: 'rate_limited',
      status: 429,
      details: { bucket: 'requests' },
    });
  });

  test('a templates route is also refused by its templates bucket; other routes are not', () => {
    const { limits: rateLimits } = limits();
    use(rateLimits, ['templates'], 10);
    const templates: CallRule = { scope: 'templates.read', bucket: 'templates' };
    expect(refusalOf(rateLimits, sandboxCaller(), templates, NOW, 'GET', SEND_URL)).toMatchObject({
      code: 'rate_limited',
      details: { bucket: 'templates' },
    });
    expect(
      refusalOf(rateLimits, sandboxCaller(), { scope: 'connections.read' }, NOW, 'GET', SEND_URL),
    ).toBeUndefined();
  });

  test('the sends bucket is left to the send itself (a replay costs no send)', () => {
    const { limits: rateLimits } = limits();
    use(rateLimits, ['sends'], 30);
    expect(refusalOf(rateLimits, sandboxCaller(), sendRule, NOW, 'POST', SEND_URL)).toBeUndefined();
  });

  test('a live key on a sandbox-only route: 403 sandbox_only naming the call, before its scope', () => {
    const refusal = refusalOf(limits().limits, liveCaller([]), eventRule, NOW, 'POST', {
      pathname: '/v1/sandbox/events',
    });
    expect(refusal).toMatchObject({
      code: 'sandbox_only',
      message: 'POST /v1/sandbox/events takes sandbox keys only.',
    });
    expect(refusal?.status).toBe(403);
  });

  test('a rate-limited live key on a sandbox-only route: 429 first', () => {
    const { limits: rateLimits } = limits();
    use(rateLimits, ['requests'], 60);
    expect(refusalOf(rateLimits, liveCaller([]), eventRule, NOW, 'POST', SEND_URL)?.code).toBe(
      'rate_limited',
    );
  });

  test('a key without the scope: 403 insufficient_scope naming it; a live key on other routes passes', () => {
    const withoutSend = SCOPES.filter((scope) => scope !== 'messages.send');
    expect(
      refusalOf(limits().limits, sandboxCaller(withoutSend), sendRule, NOW, 'POST', SEND_URL),
    ).toMatchObject({
      code: 'insufficient_scope',
      status: 403,
      message: 'This API key lacks the scope messages.send.',
      details: { required_scope: 'messages.send' },
    });
    expect(refusalOf(limits().limits, liveCaller(), sendRule, NOW, 'POST', SEND_URL)).toBeUndefined();
  });

  test('a sandbox key without the scope on a sandbox-only route: insufficient_scope', () => {
    expect(refusalOf(limits().limits, sandboxCaller([]), eventRule, NOW, 'POST', SEND_URL)?.code).toBe(
      'insufficient_scope',
    );
  });
});

describe('what an answered call costs (spec 8)', () => {
  test('a plain call: one request, and the requests headers', () => {
    const { limits: rateLimits, windows } = limits();
    expect(chargeAnswered(rateLimits, sandboxCaller(), {}, NOW, undefined)).toEqual({
      'ratelimit-limit': '60',
      'ratelimit-remaining': '59',
      'ratelimit-reset': '45',
    });
    expect(windows['key-1']!.used).toEqual({ requests: 1, sends: 0, templates: 0 });
  });

  test('a send: one request and one send, and the sends headers', () => {
    const { limits: rateLimits, windows } = limits();
    expect(chargeAnswered(rateLimits, sandboxCaller(), { bucket: 'sends' }, NOW, undefined)).toEqual({
      'ratelimit-limit': '30',
      'ratelimit-remaining': '29',
      'ratelimit-reset': '45',
    });
    expect(windows['key-1']!.used).toEqual({ requests: 1, sends: 1, templates: 0 });
  });

  test('a templates call: one request and one templates, and the templates headers', () => {
    const { limits: rateLimits, windows } = limits();
    expect(chargeAnswered(rateLimits, sandboxCaller(), { bucket: 'templates' }, NOW, undefined)).toEqual({
      'ratelimit-limit': '10',
      'ratelimit-remaining': '9',
      'ratelimit-reset': '45',
    });
    expect(windows['key-1']!.used).toEqual({ requests: 1, sends: 0, templates: 1 });
  });

  test('an idempotent replay: only a request, and the sends headers unchanged', () => {
    const { limits: rateLimits, windows } = limits();
    expect(REQUESTS_CHARGE).toEqual(['requests']);
    expect(chargeAnswered(rateLimits, sandboxCaller(), { bucket: 'sends' }, NOW, REQUESTS_CHARGE)).toEqual({
      'ratelimit-limit': '30',
      'ratelimit-remaining': '30',
      'ratelimit-reset': '45',
    });
    expect(windows['key-1']!.used).toEqual({ requests: 1, sends: 0, templates: 0 });
  });

  test('limits off: nothing charged, no headers', () => {
    const { limits: rateLimits, windows } = limits(false);
    expect(chargeAnswered(rateLimits, sandboxCaller(), { bucket: 'sends' }, NOW, undefined)).toBeUndefined();
    expect(windows).toEqual({});
  });
});

describe('what a refused or failed call costs (DESIGN §2)', () => {
  const rateLimited = (bucket: string) =>
    new DomainError('rate_limited', `Rate limit of the ${bucket} bucket reached.`, { bucket });

  test("a 429: nothing consumed, its bucket's headers and Retry-After to the window's end", () => {
    const { limits: rateLimits, windows } = limits();
    use(rateLimits, ['requests', 'sends'], 30);
    expect(
      chargeRefused(rateLimits, sandboxCaller(), { bucket: 'sends' }, NOW, rateLimited('sends')),
    ).toEqual({
      'ratelimit-limit': '30',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '45',
      'retry-after': '45',
    });
    expect(chargeRefused(rateLimits, sandboxCaller(), {}, MINUTE + 59_999, rateLimited('requests'))).toEqual({
      'ratelimit-limit': '60',
      'ratelimit-remaining': '30',
      'ratelimit-reset': '1',
      'retry-after': '1',
    });
    expect(windows['key-1']!.used).toEqual({ requests: 30, sends: 30, templates: 0 });
  });

  test("a 429 with its own Retry-After (the daily cap): that one, and the route's bucket", () => {
    const { limits: rateLimits, windows } = limits();
    const dailyCap = new DomainError('daily_send_limit_reached', 'Daily cap.', {
      limit: 1000,
      retry_after: 3600,
    });
    expect(chargeRefused(rateLimits, sandboxCaller(), { bucket: 'sends' }, NOW, dailyCap)).toEqual({
      'ratelimit-limit': '30',
      'ratelimit-remaining': '30',
      'ratelimit-reset': '45',
      'retry-after': '3600',
    });
    expect(windows['key-1']!.used).toEqual({ requests: 0, sends: 0, templates: 0 });
  });

  test('a 429 with limits off: only Retry-After', () => {
    expect(chargeRefused(limits(false).limits, sandboxCaller(), {}, NOW, rateLimited('requests'))).toEqual({
      'retry-after': '45',
    });
  });

  test('a change the data dir could not store: nothing consumed', () => {
    const { limits: rateLimits, windows } = limits();
    const unstored = new PersistenceError('disk full', 'ENOSPC');
    expect(chargeRefused(rateLimits, sandboxCaller(), { bucket: 'sends' }, NOW, unstored)).toEqual({
      'ratelimit-limit': '30',
      'ratelimit-remaining': '30',
      'ratelimit-reset': '45',
    });
    expect(windows['key-1']!.used).toEqual({ requests: 0, sends: 0, templates: 0 });
  });

  test('any other refusal or failure is charged to the route', () => {
    const { limits: rateLimits, windows } = limits();
    const invalid = new DomainError('validation_error', 'to is not a phone number.');
    expect(chargeRefused(rateLimits, sandboxCaller(), { bucket: 'sends' }, NOW, invalid)).toEqual({
      'ratelimit-limit': '30',
      'ratelimit-remaining': '29',
      'ratelimit-reset': '45',
    });
    expect(chargeRefused(rateLimits, sandboxCaller(), {}, NOW, new TypeError('bug'))).toEqual({
      'ratelimit-limit': '60',
      'ratelimit-remaining': '58',
      'ratelimit-reset': '45',
    });
    expect(windows['key-1']!.used).toEqual({ requests: 2, sends: 1, templates: 0 });
  });
});
