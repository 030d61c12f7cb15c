import { readAtMost } from '@parley/emulator/control';
import { canonicalJson, signWebhook, WEBHOOK_OUTCOME_HEADER, type WebhookEvent } from '@parley/sdk';
import { innermostCause } from '../../client/innermost-cause';
import { ANSWER_READ_BYTES, answerExcerpt } from '../listen/_app-answer';

/** One delivery the doctor sent and what came back. */
export interface DoctorAnswer {
  event_id: string;
  /** The receiver's status, or `null` when no answer came in time. */
  status: number | null;
  /** Its `Parley-Webhook-Outcome` header, when it sends one. */
  outcome: string | null;
  /** The start of its answer's body (200 bytes, on one line), for the report's reasons. */
  body: string;
  /** The answer was longer than 64 KiB: the doctor stopped reading it there. */
  body_cut: boolean;
  duration_ms: number;
  /** Why no answer came: timeout, refused connection… */
  error: string | null;
}

/** How a delivery is signed: by default like Parley, with the receiver's secret and the time now. */
export interface SigningChoice {
  secrets: readonly string[];
  /** Unix seconds; default now. */
  timestamp?: number;
  /** Sign this body but send the event's (a tampered delivery). */
  tamper?: (body: string) => string;
}

/** Sends one signed delivery; never throws (a refused connection is an answer without status). */
export type DeliverFunction = (event: WebhookEvent, signing: SigningChoice) => Promise<DoctorAnswer>;

/** Identifies the doctor's traffic in the receiver's logs, as Parley's own user agent does. */
const USER_AGENT = 'Parley-Webhooks/1.0 (parley webhooks doctor)';

/**
 * A deliverer to `url`: the event's canonical body, signed with the SDK's `signWebhook` exactly as
 * Parley signs, POSTed without following redirects (a 3xx is not an answer Parley accepts), and
 * abandoned after `timeoutMs` as Parley abandons an attempt.
 */
export function deliverer(
  url: string,
  timeoutMs: number,
  fetchFunction: (request: Request) => Promise<Response>,
  signal: AbortSignal,
): DeliverFunction {
  return async (event, signing) => {
    const signedBody = canonicalJson(event);
    const body = signing.tamper ? signing.tamper(signedBody) : signedBody;
    const headers = await signWebhook({
      payload: signedBody,
      secret: signing.secrets,
      id: event.id,
      ...(signing.timestamp === undefined ? {} : { timestamp: signing.timestamp }),
    });
    const timeout = AbortSignal.timeout(timeoutMs);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const request = new Request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...headers },
      redirect: 'manual',
      signal: AbortSignal.any([timeout, signal]),
    });
    try {
      const response = await fetchFunction(request);
      // Bounded: an endless answer is cut at ANSWER_READ_BYTES, not read to the timeout.
      const { bytes, cut } = await readAtMost(response.body, ANSWER_READ_BYTES, request);
      return {
        event_id: event.id,
        status: response.status,
        outcome: response.headers.get(WEBHOOK_OUTCOME_HEADER),
        // The same excerpt `listen` shows: one printable line, so a receiver's bytes never drive the terminal.
        body: answerExcerpt(bytes),
        body_cut: cut,
        duration_ms: elapsed(),
        error: null,
      };
    } catch (error) {
      const reason = timeout.aborted
        ? `no answer within ${formatSeconds(timeoutMs)}`
        : `no answer: ${networkReason(error)}`;
      return {
        event_id: event.id,
        status: null,
        outcome: null,
        body: '',
        body_cut: false,
        duration_ms: elapsed(),
        error: reason,
      };
    }
  };
}

/** `15 s`, `0.2 s`. */
export function formatSeconds(ms: number): string {
  return `${ms / 1000} s`;
}

// fetch wraps the socket error: its cause has the code (ECONNREFUSED…).
function networkReason(error: unknown): string {
  const { code, message } = innermostCause(error);
  return code ?? message ?? String(error);
}
