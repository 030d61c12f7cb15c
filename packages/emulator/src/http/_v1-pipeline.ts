import type { RateLimitBucket, Scope } from '@parley/sdk';
import type { H3Event } from 'h3';
import type { RequestActivity } from '../core/activity-feed';
import type { EmulatorCore } from '../core/emulator-core';
import { authenticate, type Caller } from '../core/keys';
import { rejectIfExhausted } from '../core/rate-limits';
import type { IdempotencyTicket } from '../core/send-idempotency';
import { isUnstoredChange } from '../core/unstored-change';
import { requireScope } from '../domain/api-keys';
import { DomainError } from '../domain/domain-error';
import { newRequestId } from '../domain/ids';
import { consume, type RateLimitState, report } from '../domain/rate-limit-window';
import { type AppliedFault, applyFault, type TakenFault, takeFault } from './_fault-answer';
import { type BodyRead, parseJsonBody, readBodyText, requireJsonContentType } from './_read-body';
import { requestHeader } from './_request-header';
import { errorResponse, jsonResponse } from './_respond';

/** What a /v1 handler gets once authentication, limits, scope and body checks passed. */
export interface V1Call {
  core: EmulatorCore;
  caller: Caller;
  request: Request;
  /** The h3 event (route params). */
  event: H3Event;
  /** The parsed request URL (h3's). */
  url: URL;
  /** The parsed JSON body (routes with `readsBody`). */
  body: unknown;
  /** The Idempotency-Key's hold (routes with `holdsIdempotencyKey`), released once answered. */
  ticket: IdempotencyTicket | undefined;
}

/** A request item before the feed numbers and dates it. */
type RequestActivityDraft = Omit<RequestActivity, 'seq' | 'at'>;

/** A handler's answer. */
export interface V1Result {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The buckets the call is counted against when not the route's (an idempotent replay: `requests` only). */
  charge?: readonly RateLimitBucket[];
}

/** How one /v1 route is guarded. */
export interface V1RouteSpec {
  /** The scope the call needs; none for the answer to an unknown route (it needs only a valid key). */
  scope?: Scope;
  /** The route's own bucket besides `requests` (spec 8). */
  bucket?: 'sends' | 'templates';
  /** Checked before the scope: `POST /sandbox/events` answers `sandbox_only` to live keys first. */
  sandboxOnly?: boolean;
  readsBody?: boolean;
  /**
   * Holds the request's Idempotency-Key from before the body is read until the call is answered
   * (`core.idempotency.begin/release`), so a second request with it meanwhile is told it is in use.
   */
  holdsIdempotencyKey?: boolean;
  run: (call: V1Call) => V1Result;
}

// Shared, never mutated: a call's charge is replaced, not changed.
const REQUESTS_ONLY: readonly RateLimitBucket[] = ['requests'];
const WITH_SENDS: readonly RateLimitBucket[] = ['requests', 'sends'];
const WITH_TEMPLATES: readonly RateLimitBucket[] = ['requests', 'templates'];

/** The buckets a route is charged to. */
function chargeOf(bucket: V1RouteSpec['bucket']): readonly RateLimitBucket[] {
  return bucket === 'sends' ? WITH_SENDS : bucket === 'templates' ? WITH_TEMPLATES : REQUESTS_ONLY;
}

/** Only `requests`: what an idempotent replay costs. */
export const REQUESTS_CHARGE = REQUESTS_ONLY;

/**
 * Runs one /v1 call in the documented order: 401 → 429 → 403 → 415/413/400 → the handler. All of
 * it after the body read is synchronous, so a limit checked is a limit consumed (no race). That
 * is why the steps are one function and not h3 middleware, which awaits between handlers: 100
 * concurrent sends on one bucket (hardening `concurrency`) must see each other's charge. The body
 * is read by `_read-body.ts`, not h3's `readBody`: it stops at 100 KiB and drains what it refuses
 * instead of cancelling the Node stream (issue 8), and answers 413 after the 401.
 * Every answer carries `X-Request-Id`; authenticated ones the `RateLimit-*` of the call's bucket;
 * answers 429 consume nothing (DESIGN §2). A call that reads no body, with no fault injected, is
 * answered without a single await (`GET /v1/status` is the load-test call).
 */
export function runV1(core: EmulatorCore, event: H3Event, spec: V1RouteSpec): Response | Promise<Response> {
  const started = performance.now();
  const trace: CallTrace = { requestId: newRequestId(), caller: undefined, started };
  // Injected faults come first (`/_emulator/faults`); without any, nothing is looked up.
  const taken = core.faults.active ? takeFault(core, event) : undefined;
  if (taken) return runWithFault(core, event, spec, trace, taken);
  const answered = handle(core, event, spec, trace);
  return answered instanceof Promise
    ? answered.then((response) => published(core, event, trace, response))
    : published(core, event, trace, answered);
}

async function runWithFault(
  core: EmulatorCore,
  event: H3Event,
  spec: V1RouteSpec,
  trace: CallTrace,
  taken: TakenFault,
): Promise<Response> {
  const applied = await applyFault(core, event, taken, trace.requestId);
  trace.caller = applied.caller;
  const response = applied.response ?? (await handle(core, event, spec, trace));
  return published(core, event, trace, response, applied);
}

/** Tells the activity feed of an answered call; returns the answer. */
function published(
  core: EmulatorCore,
  event: H3Event,
  trace: CallTrace,
  response: Response,
  applied?: AppliedFault,
): Response {
  const draft: RequestActivityDraft = {
    kind: 'request',
    application_ids: trace.caller ? [trace.caller.application.id] : [],
    method: event.req.method,
    path: event.url.pathname,
    status: applied?.unanswered ? 0 : response.status,
    request_id: trace.requestId,
    key_prefix: trace.caller?.key.prefix ?? null,
    duration_ms: Math.round((performance.now() - trace.started) * 100) / 100,
  };
  if (applied) draft.fault = applied.fault.id;
  core.activity.publish(draft);
  return response;
}

/** What the activity feed is told of a call: its request id and, once authenticated, its caller. */
interface CallTrace {
  requestId: string;
  caller: Caller | undefined;
  /** `performance.now()` when the call came in. */
  started: number;
}

/** Authenticates, then answers: at once, or after the body read (and Idempotency-Key hold) of a send. */
function handle(
  core: EmulatorCore,
  event: H3Event,
  spec: V1RouteSpec,
  trace: CallTrace,
): Response | Promise<Response> {
  const request = event.req;
  const { requestId } = trace;
  let caller: Caller;
  try {
    caller = authenticate(core, requestHeader(request, 'authorization'));
  } catch (error) {
    return errorResponse(error, requestId);
  }
  trace.caller = caller;
  if (!spec.readsBody && !spec.holdsIdempotencyKey) {
    return answer(core, event, spec, caller, undefined, undefined, requestId);
  }
  return readThenAnswer(core, event, spec, caller, requestId);
}

async function readThenAnswer(
  core: EmulatorCore,
  event: H3Event,
  spec: V1RouteSpec,
  caller: Caller,
  requestId: string,
): Promise<Response> {
  const request = event.req;
  const ticket = spec.holdsIdempotencyKey
    ? core.idempotency.begin(caller.key.id, request.headers.get('idempotency-key'))
    : undefined;
  try {
    const read: BodyRead | undefined = spec.readsBody ? await readBodyText(request) : undefined;
    // A reset may have replaced the state while the body was read.
    if (read && !core.state.keys[caller.key.id]) {
      return errorResponse(
        new DomainError('invalid_api_key', 'This API key is unknown or revoked.'),
        requestId,
      );
    }
    return answer(core, event, spec, caller, read, ticket, requestId);
  } finally {
    if (ticket) core.idempotency.release(ticket);
  }
}

function answer(
  core: EmulatorCore,
  event: H3Event,
  spec: V1RouteSpec,
  caller: Caller,
  read: BodyRead | undefined,
  ticket: IdempotencyTicket | undefined,
  requestId: string,
): Response {
  const request = event.req;
  const keyId = caller.key.id;
  const limits = core.state.rate_limits;
  const ownBucket: RateLimitBucket = spec.bucket ?? 'requests';
  const call: V1Call = {
    core,
    caller,
    request,
    event,
    url: event.url,
    body: undefined,
    ticket,
  };
  const charge = chargeOf(spec.bucket);
  // Without rate limits (load tests) no header object is built at all.
  const rateHeaders = (bucket: RateLimitBucket, now: number): Record<string, string> | undefined =>
    core.rateLimits ? rateLimitHeaders(limits, keyId, bucket, now) : undefined;
  // Keys are scoped to a workspace: its clock times this call (windows, ages, created_at).
  const now = core.nowIn(caller.application.workspace_id);
  try {
    // `sends` is checked by the handler, after an idempotent replay had its chance (it costs no send).
    const early = spec.bucket === 'templates' ? charge : REQUESTS_ONLY;
    rejectIfExhausted(core, keyId, early, now);
    if (spec.sandboxOnly && caller.application.environment !== 'sandbox') {
      throw new DomainError(
        'sandbox_only',
        `${request.method} ${event.url.pathname} takes sandbox keys only.`,
      );
    }
    if (spec.scope) requireScope(caller.key, spec.scope);
    if (read) {
      requireJsonContentType(request);
      call.body = parseJsonBody(read);
    }
    const result = spec.run(call);
    if (core.rateLimits) consume(limits, keyId, result.charge ?? charge, now);
    const headers = rateHeaders(ownBucket, now);
    return jsonResponse(
      result.status,
      result.body,
      requestId,
      headers && result.headers ? { ...headers, ...result.headers } : (headers ?? result.headers),
    );
  } catch (error) {
    if (error instanceof DomainError && error.status === 429) {
      const bucket = (error.details?.bucket as RateLimitBucket | undefined) ?? ownBucket;
      const retryAfter = error.details?.retry_after ?? report(limits, keyId, bucket, now).resetSeconds;
      return errorResponse(error, requestId, {
        ...rateHeaders(bucket, now),
        'retry-after': String(retryAfter),
      });
    }
    // A change the data dir could not store was not made: like a refusal, it consumes nothing.
    if (core.rateLimits && !isUnstoredChange(error)) consume(limits, keyId, charge, now);
    return errorResponse(error, requestId, rateHeaders(ownBucket, now));
  }
}

function rateLimitHeaders(
  limits: RateLimitState,
  keyId: string,
  bucket: RateLimitBucket,
  now: number,
): Record<string, string> {
  const figures = report(limits, keyId, bucket, now);
  return {
    'ratelimit-limit': String(figures.limit),
    'ratelimit-remaining': String(figures.remaining),
    'ratelimit-reset': String(figures.resetSeconds),
  };
}
