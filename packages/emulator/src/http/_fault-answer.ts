import type { IncomingMessage } from 'node:http';
import type { H3Event } from 'h3';
import { callerOf } from '../core/admission';
import type { EmulatorCore } from '../core/emulator-core';
import type { FaultView } from '../core/fault-table';
import type { Caller } from '../core/keys';
import { bearerToken, type KeyRecord } from '../domain/api-keys';
import { requestHeader } from './_request-header';
import { jsonResponse } from './_respond';

/** What an applied fault did: the answer to send, or none (a delay: the real answer follows). */
export interface AppliedFault {
  fault: FaultView;
  /** The injected answer; undefined after a delay, when the request goes on to the API. */
  response: Response | undefined;
  /** True when no answer went out (a hang or a drop): the activity stream shows status 0. */
  unanswered: boolean;
  /** The caller, when the request carried a known key (for the activity stream). */
  caller: Caller | undefined;
}

/** A fault taken for a request, not yet applied. */
export interface TakenFault {
  fault: FaultView;
  /** The caller, when the request carried a known key (for the activity stream). */
  caller: Caller | undefined;
}

/**
 * Takes the first injected fault that matches this /v1 request, if any (`/_emulator/faults`), one
 * use of it. Synchronous, and the presented key is looked up only when a fault names one or
 * matched: a request no fault matches costs a token parse and the index's look-ups (issue 23).
 */
export function takeFault(core: EmulatorCore, event: H3Event): TakenFault | undefined {
  const request = event.req;
  const token = bearerToken(requestHeader(request, 'authorization'));
  let looked = false;
  let key: KeyRecord | undefined;
  const presentedKey = () => {
    if (!looked) {
      looked = true;
      key = token === undefined ? undefined : core.findKey(token);
    }
    return key;
  };
  const fault = core.faults.take({
    method: request.method,
    path: event.url.pathname,
    key: token,
    get keyId() {
      return presentedKey()?.id;
    },
  });
  if (!fault) return undefined;
  const found = presentedKey();
  return { fault, caller: found && callerOf(core, found) };
}

/**
 * Applies a taken fault. An error is answered in the spec's error format; a hang waits until the
 * client goes away (or the emulator closes); a drop resets the socket (in process: a network
 * error); a delay waits real time, then lets the request through.
 */
export async function applyFault(
  core: EmulatorCore,
  event: H3Event,
  { fault, caller }: TakenFault,
  requestId: string,
): Promise<AppliedFault> {
  const request = event.req;
  const applied = (response: Response | undefined, unanswered = false): AppliedFault => ({
    fault,
    response,
    unanswered,
    caller,
  });
  const answer = fault.fault;
  if ('status' in answer) {
    const body = {
      error: {
        code: answer.code,
        message: `Injected by the emulator (fault ${fault.id}).`,
        request_id: requestId,
        details: { fault_id: fault.id },
      },
    };
    const headers =
      answer.retry_after === undefined ? undefined : { 'retry-after': String(answer.retry_after) };
    return applied(jsonResponse(answer.status, body, requestId, headers));
  }
  if ('delay_ms' in answer) {
    await realTime(answer.delay_ms, core.faults.released);
    return applied(undefined);
  }
  // Time that stands still for the emulator still passes for the client: both wait on real time.
  if ('hang' in answer) await realTime(Number.POSITIVE_INFINITY, core.faults.released, request.signal);
  return applied(dropConnection(event), true);
}

/** Resolves after `ms` real milliseconds, or as soon as one of the signals aborts. */
function realTime(ms: number, ...signals: AbortSignal[]): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    for (const signal of signals) {
      if (signal.aborted) return done();
      signal.addEventListener('abort', done, { once: true });
    }
  });
}

/**
 * Over a socket (Node), destroys it: the client sees a reset connection. In process there is no
 * socket: `Response.error()` is the web's network error, which `emulator.fetch` throws as
 * `TypeError: fetch failed` and the msw handlers hand to msw as is.
 */
function dropConnection(event: H3Event): Response {
  const node = (event.req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node;
  if (node?.req) {
    node.req.socket.destroy();
    // Never written (the socket is gone); a plain answer keeps the Node adapter quiet.
    return new Response(null, { status: 204 });
  }
  return Response.error();
}
