import type { RateLimitBucket, Scope } from '@parley/sdk';
import { type KeyRecord, requireScope } from '../domain/api-keys';
import type { Dictionary } from '../domain/dictionary';
import { DomainError } from '../domain/domain-error';
import type { ApplicationRecord } from '../domain/records';
import { PersistenceError } from '../store/data-dir-errors';
import { presentedKey } from './_presented-key';
import type { Caller } from './keys';
import type { RateLimits } from './rate-limits';
import type { IdempotencyTicket, SendIdempotency } from './send-idempotency';

/**
 * Admission of a /v1 call (DESIGN §2), in the order the pipeline of `http/_v1-pipeline.ts` runs
 * it: who calls ({@link admit}), for a send the Idempotency-Key's hold ({@link holdIdempotencyKey}),
 * after a body read whether the key still stands ({@link revokedSince}), then the rate limit,
 * sandbox-only and scope ({@link refusalOf}), and once answered what the call costs
 * ({@link chargeAnswered}, {@link chargeRefused}). Each step returns its outcome; `http/` renders
 * it and never reads the state itself. Nothing here awaits or allocates when a call passes: the
 * body-less `GET /v1/status` is the load-test call.
 */

/** A call whose key authenticated: the caller, tagged for {@link Admission}. */
export interface Admitted extends Caller {
  readonly ok: true;
}

/** A call refused at the door: the error to answer (401). */
export interface Refused {
  readonly ok: false;
  readonly error: DomainError;
}

/** What {@link admit} decided. */
export type Admission = Admitted | Refused;

/** What admission reads of the core: the key index and the records keys and applications live in. */
export interface KeyDirectory {
  /** The key record of a presented key; `hash` is its hash when already computed. */
  findKey(presented: string, hash?: string): KeyRecord | undefined;
  readonly state: {
    readonly keys: Dictionary<KeyRecord>;
    readonly applications: Dictionary<ApplicationRecord>;
  };
}

/** What a /v1 route asks of its caller before it runs. */
export interface CallRule {
  /** The scope the call needs; none for the answer to an unknown route (it needs only a valid key). */
  scope?: Scope | undefined;
  /** The route's own bucket besides `requests` (spec 8). */
  bucket?: 'sends' | 'templates' | undefined;
  /** Checked before the scope: `POST /sandbox/events` answers `sandbox_only` to live keys first. */
  sandboxOnly?: boolean | undefined;
}

// Shared, never mutated: a call's charge is replaced, not changed.
const REQUESTS_ONLY: readonly RateLimitBucket[] = ['requests'];
const WITH_SENDS: readonly RateLimitBucket[] = ['requests', 'sends'];
const WITH_TEMPLATES: readonly RateLimitBucket[] = ['requests', 'templates'];

/** Only `requests`: what an idempotent replay costs. */
export const REQUESTS_CHARGE = REQUESTS_ONLY;

/** The buckets a route is charged to. */
function chargeOf(bucket: CallRule['bucket']): readonly RateLimitBucket[] {
  return bucket === 'sends' ? WITH_SENDS : bucket === 'templates' ? WITH_TEMPLATES : REQUESTS_ONLY;
}

const unknownKey = () => new DomainError('invalid_api_key', 'This API key is unknown or revoked.');

/**
 * Authenticates `Authorization: Bearer …`: the caller, or 401 `missing_api_key` / `invalid_api_key`.
 * `connection` (the request's socket) lets a keep-alive client's repeated header skip its parse and hash.
 */
export function admit(directory: KeyDirectory, authorization: string | null, connection?: object): Admission {
  const presented = presentedKey(authorization, connection);
  if (presented === undefined) {
    return {
      ok: false,
      error: new DomainError('missing_api_key', 'Send your API key as "Authorization: Bearer <API_KEY>".'),
    };
  }
  const key = directory.findKey(presented.token, presented.hash);
  const application = key && directory.state.applications[key.application_id];
  if (!key || !application) return { ok: false, error: unknownKey() };
  return { ok: true, key, application };
}

/** The caller a known key stands for, if its application still exists (an injected fault's caller). */
export function callerOf(directory: KeyDirectory, key: KeyRecord): Caller | undefined {
  const application = directory.state.applications[key.application_id];
  return application ? { key, application } : undefined;
}

/**
 * Holds a send's Idempotency-Key from before its body is read until it is answered
 * ({@link SendIdempotency.release}), so a second request with it meanwhile is told it is in use.
 */
export function holdIdempotencyKey(
  idempotency: SendIdempotency,
  caller: Caller,
  header: string | null,
): IdempotencyTicket {
  return idempotency.begin(caller.key.id, header);
}

/**
 * 401 `invalid_api_key` when the caller's key is gone since it was admitted (revoked, or the state
 * reset, while the body was read: DESIGN §2), else undefined.
 */
export function revokedSince(directory: KeyDirectory, caller: Caller): DomainError | undefined {
  return directory.state.keys[caller.key.id] ? undefined : unknownKey();
}

/**
 * Why an admitted call may not run, in the documented order: 429 (its `requests` bucket, and
 * `templates` for a templates route; `sends` is checked by the send itself, after an idempotent
 * replay had its chance, as a replay costs no send), `sandbox_only`, then scope. Undefined when
 * it may run. `method` and `url` only name the call in a refusal.
 */
export function refusalOf(
  limits: RateLimits,
  caller: Caller,
  rule: CallRule,
  now: number,
  method: string,
  url: { readonly pathname: string },
): DomainError | undefined {
  const limited = limits.refusal(
    caller.key.id,
    rule.bucket === 'templates' ? WITH_TEMPLATES : REQUESTS_ONLY,
    now,
  );
  if (limited) return limited;
  if (rule.sandboxOnly && caller.application.environment !== 'sandbox') {
    return new DomainError('sandbox_only', `${method} ${url.pathname} takes sandbox keys only.`);
  }
  if (rule.scope) {
    try {
      requireScope(caller.key, rule.scope);
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
  }
  return undefined;
}

/**
 * Charges an answered call (`charge` when the handler named its own, as a replay does) and
 * returns the `RateLimit-*` headers of the route's bucket (undefined with limits off).
 */
export function chargeAnswered(
  limits: RateLimits,
  caller: Caller,
  rule: CallRule,
  now: number,
  charge: readonly RateLimitBucket[] | undefined,
): Record<string, string> | undefined {
  const keyId = caller.key.id;
  limits.charge(keyId, charge ?? chargeOf(rule.bucket), now);
  return limits.headers(keyId, rule.bucket ?? 'requests', now);
}

/**
 * What a refused or failed call costs, and the headers of its answer (DESIGN §2): a 429 consumes
 * nothing and names its bucket's window with `Retry-After`; a change the data dir could not store
 * was not made, so like a refusal it consumes nothing; anything else is charged to the route.
 */
export function chargeRefused(
  limits: RateLimits,
  caller: Caller,
  rule: CallRule,
  now: number,
  error: unknown,
): Record<string, string> | undefined {
  const keyId = caller.key.id;
  const ownBucket: RateLimitBucket = rule.bucket ?? 'requests';
  if (error instanceof DomainError && error.status === 429) {
    const bucket = (error.details?.bucket as RateLimitBucket | undefined) ?? ownBucket;
    const retryAfter = error.details?.retry_after ?? limits.resetSeconds(keyId, bucket, now);
    return { ...limits.headers(keyId, bucket, now), 'retry-after': String(retryAfter) };
  }
  if (!(error instanceof PersistenceError)) limits.charge(keyId, chargeOf(rule.bucket), now);
  return limits.headers(keyId, ownBucket, now);
}
