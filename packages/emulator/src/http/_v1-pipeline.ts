import type { RateLimitBucket } from '@parley/sdk';
import type { H3Event } from 'h3';
import type { ExchangeRing } from '../core/_exchange-ring';
import type { RequestActivity } from '../core/activity-feed';
import {
  admit,
  type CallRule,
  chargeAnswered,
  chargeRefused,
  holdIdempotencyKey,
  refusalOf,
  revokedSince,
} from '../core/admission';
import type { EmulatorCore } from '../core/emulator-core';
import type { Caller } from '../core/keys';
import type { IdempotencyTicket } from '../core/send-idempotency';
import { newRequestId } from '../domain/ids';
import { type AppliedFault, applyFault, type TakenFault, takeFault } from './_fault-answer';
import { type BodyRead, parseJsonBody, readBodyText, requireJsonContentType } from './_read-body';
import { exchangeOf } from './_record-exchange';
import { connectionOf, requestHeader } from './_request-header';
import { errorResponse, jsonResponse, jsonTextResponse } from './_respond';
import { requestTraceContext } from './_trace-context';

export { REQUESTS_CHARGE } from '../core/admission';

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
  /** The body already as JSON text (then `body` is not read): an answer the route keeps. */
  json?: string;
  headers?: Record<string, string>;
  /** The buckets the call is counted against when not the route's (an idempotent replay: `requests` only). */
  charge?: readonly RateLimitBucket[];
}

/** How one /v1 route is guarded (its scope, bucket and sandbox-only rule: `core/admission.ts`). */
export interface V1RouteSpec extends CallRule {
  readsBody?: boolean;
  /**
   * Holds the request's Idempotency-Key from before the body is read until the call is answered
   * (`core/admission.ts` `holdIdempotencyKey`, then `core.idempotency.release`), so a second
   * request with it meanwhile is told it is in use.
   */
  holdsIdempotencyKey?: boolean;
  run: (call: V1Call) => V1Result;
}

/**
 * Runs one /v1 call in the documented order: 401 → 429 → 403 → 415/413/400 → the handler. All of
 * it after the body read is synchronous, so a limit checked is a limit consumed (no race). That
 * is why the steps are one function and not h3 middleware, which awaits between handlers: 100
 * concurrent sends on one bucket (hardening `concurrency`) must see each other's charge. The body
 * is read by `_read-body.ts`, not h3's `readBody`: it stops at 100 KiB and drains what it refuses
 * instead of cancelling the Node stream (issue 8), and answers 413 after the 401.
 * Every answer carries `X-Request-Id`; authenticated ones the `RateLimit-*` of the call's bucket;
 * answers 429 consume nothing (DESIGN §2). A call that reads no body, with no fault injected, is
 * answered without a single await (`GET /v1/status` is the load-test call). With `ring`, the
 * exchange is kept there for the HAR of the traffic.
 */
export function runV1(
  core: EmulatorCore,
  event: H3Event,
  spec: V1RouteSpec,
  ring?: ExchangeRing,
): Response | Promise<Response> {
  const trace: CallTrace = {
    requestId: newRequestId(),
    caller: undefined,
    started: performance.now(),
    ring,
    requestBody: undefined,
  };
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

/** Tells the activity feed of an answered call, and keeps its exchange when recording; returns the answer. */
function published(
  core: EmulatorCore,
  event: H3Event,
  trace: CallTrace,
  response: Response,
  applied?: AppliedFault,
): Response {
  const context = requestTraceContext(event.req);
  const draft: RequestActivityDraft = {
    kind: 'request',
    application_ids: trace.caller ? [trace.caller.application.id] : [],
    method: event.req.method,
    path: event.url.pathname,
    status: applied?.unanswered ? 0 : response.status,
    request_id: trace.requestId,
    key_prefix: trace.caller?.key.prefix ?? null,
    duration_ms: Math.round((performance.now() - trace.started) * 100) / 100,
    traceparent: context.traceparent,
    tracestate: context.tracestate,
  };
  if (applied) draft.fault = applied.fault.id;
  const entry = core.activity.publish(draft);
  trace.ring?.add(exchangeOf(event, response, entry, trace.requestBody));
  return response;
}

/** What the activity feed is told of a call: its request id and, once authenticated, its caller. */
interface CallTrace {
  requestId: string;
  caller: Caller | undefined;
  /** `performance.now()` when the call came in. */
  started: number;
  /** Where the exchange is kept for the HAR, when it is. */
  ring: ExchangeRing | undefined;
  /** The JSON body as read, once it parsed (the HAR shows it). */
  requestBody: string | undefined;
}

/** Authenticates, then answers: at once, or after the body read (and Idempotency-Key hold) of a send. */
function handle(
  core: EmulatorCore,
  event: H3Event,
  spec: V1RouteSpec,
  trace: CallTrace,
): Response | Promise<Response> {
  const admission = admit(core, requestHeader(event.req, 'authorization'), connectionOf(event.req));
  if (!admission.ok) return errorResponse(admission.error, trace.requestId);
  trace.caller = admission;
  if (!spec.readsBody && !spec.holdsIdempotencyKey) {
    return answer(core, event, spec, admission, undefined, undefined, trace);
  }
  return readThenAnswer(core, event, spec, admission, trace);
}

async function readThenAnswer(
  core: EmulatorCore,
  event: H3Event,
  spec: V1RouteSpec,
  caller: Caller,
  trace: CallTrace,
): Promise<Response> {
  const request = event.req;
  const ticket = spec.holdsIdempotencyKey
    ? holdIdempotencyKey(core.idempotency, caller, request.headers.get('idempotency-key'))
    : undefined;
  try {
    const read: BodyRead | undefined = spec.readsBody ? await readBodyText(request) : undefined;
    // A reset or a revocation may have taken the key while the body was read.
    const revoked = read && revokedSince(core, caller);
    if (revoked) return errorResponse(revoked, trace.requestId);
    return answer(core, event, spec, caller, read, ticket, trace);
  } finally {
    if (ticket) core.idempotency.release(ticket);
  }
}

/** Runs an admitted call: its refusal (rate limit, sandbox-only, scope), else the handler; charged either way. */
function answer(
  core: EmulatorCore,
  event: H3Event,
  spec: V1RouteSpec,
  caller: Caller,
  read: BodyRead | undefined,
  ticket: IdempotencyTicket | undefined,
  trace: CallTrace,
): Response {
  const { requestId } = trace;
  const request = event.req;
  const limits = core.rateLimits;
  // Keys are scoped to a workspace: its clock times this call (windows, ages, created_at).
  const now = core.nowIn(caller.application.workspace_id);
  const refused = refusalOf(limits, caller, spec, now, request.method, event.url);
  if (refused) return errorResponse(refused, requestId, chargeRefused(limits, caller, spec, now, refused));
  const call: V1Call = {
    core,
    caller,
    request,
    event,
    url: event.url,
    body: undefined,
    ticket,
  };
  try {
    if (read) {
      requireJsonContentType(request);
      call.body = parseJsonBody(read);
      if (read.ok) trace.requestBody = read.text;
    }
    const result = spec.run(call);
    // Without rate limits (load tests) no header object is built at all.
    const headers = chargeAnswered(limits, caller, spec, now, result.charge);
    const answerHeaders =
      headers && result.headers ? { ...headers, ...result.headers } : (headers ?? result.headers);
    return result.json === undefined
      ? jsonResponse(result.status, result.body, requestId, answerHeaders)
      : jsonTextResponse(result.status, result.json, requestId, answerHeaders);
  } catch (error) {
    return errorResponse(error, requestId, chargeRefused(limits, caller, spec, now, error));
  }
}
