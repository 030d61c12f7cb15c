import { requestHeader } from './_request-header';

/** The W3C Trace Context headers of a request, as the activity feed records them. */
export interface TraceContextFields {
  /** The request's `traceparent` when well formed (version 00's 55 characters); null otherwise. */
  traceparent: string | null;
  /** Its `tracestate` when well formed and `traceparent` is; null otherwise. */
  tracestate: string | null;
}

const NONE: TraceContextFields = Object.freeze({ traceparent: null, tracestate: null });

// Version 00's exact form (W3C Trace Context §3.2): lower-case hex only. Longer forms of future
// versions are recorded as null rather than cut, so what is shown is always what was sent.
const TRACEPARENT = /^([\da-f]{2})-([\da-f]{32})-([\da-f]{16})-[\da-f]{2}$/;
const ALL_ZERO = /^0+$/;
/** The spec's limit a vendor must propagate (§3.3.1.5); anything longer is refused, not cut. */
export const TRACESTATE_MAX_LENGTH = 512;
const TRACESTATE_MAX_MEMBERS = 32;
// A list member (§3.3.1.3): a simple or multi-tenant key, then `=`, then printable ASCII except
// `,` and `=`, not ending with a space.
const MEMBER =
  /^(?:[a-z][_\da-z\-*/]{0,255}|[a-z\d][_\da-z\-*/]{0,240}@[a-z][_\da-z\-*/]{0,13})=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/** The trace context `request` carries (its `tracestate` read only beside a valid `traceparent`). */
export function requestTraceContext(request: Request): TraceContextFields {
  const traceparent = requestHeader(request, 'traceparent');
  if (traceparent === null || !validTraceparent(traceparent)) return NONE;
  return { traceparent, tracestate: validTracestate(requestHeader(request, 'tracestate')) };
}

/**
 * Validates the raw `traceparent` and `tracestate` headers (null when absent). A malformed value is
 * recorded as null, never echoed: the activity feed is read by the console and `logs tail`, and a
 * header is outside input. `tracestate` counts only beside a valid `traceparent` (§3.3).
 */
export function traceContextOf(traceparent: string | null, tracestate: string | null): TraceContextFields {
  if (traceparent === null || !validTraceparent(traceparent)) return NONE;
  return { traceparent, tracestate: validTracestate(tracestate) };
}

function validTraceparent(value: string): boolean {
  if (value.length !== 55) return false;
  const match = TRACEPARENT.exec(value);
  return match !== null && match[1] === '00' && !ALL_ZERO.test(match[2]!) && !ALL_ZERO.test(match[3]!);
}

function validTracestate(value: string | null): string | null {
  if (value === null || value.length > TRACESTATE_MAX_LENGTH) return null;
  const members = value.split(',');
  if (members.length > TRACESTATE_MAX_MEMBERS) return null;
  let any = false;
  for (const member of members) {
    const trimmed = member.replace(/^[ \t]+|[ \t]+$/g, '');
    if (trimmed === '') continue;
    if (!MEMBER.test(trimmed)) return null;
    any = true;
  }
  return any ? value : null;
}
