import type { DeliveryNetwork } from './delivery-network';
import type { HostResolver } from './url-policy';

export type { DeliveryNetwork } from './delivery-network';

// undici is loaded at the first attempt, not at start: importing it was a third of the CPU the bin
// spent before its ready line (issue 23), and most runs deliver nothing until a test sends.
let network: Promise<[typeof import('undici'), typeof import('./_pinned-agents')]> | undefined;
const loadNetwork = () => {
  network ??= Promise.all([import('undici'), import('./_pinned-agents')]);
  return network;
};

/** What one HTTP attempt produced. */
export interface AttemptOutcome {
  /** The receiver's status, or `null` when no answer came. */
  statusCode: number | null;
  /** Why the attempt failed, or `null` for a 2xx. */
  error: string | null;
  durationMs: number;
}

/**
 * Every network seam of webhook deliveries, for tests of the URL policy: the resolver the policy
 * asks (default `dns.lookup`), where a checked address is dialled and which CA is trusted.
 */
export interface WebhookNetwork extends DeliveryNetwork {
  resolveHost?: HostResolver;
}

/** One signed POST of a delivery body. */
export interface AttemptRequest {
  url: string;
  /** The addresses the URL policy checked (`checkEndpointTarget`); the socket connects to these only. */
  addresses: readonly string[] | null;
  network?: DeliveryNetwork | undefined;
  body: string;
  headers: Record<string, string>;
  /** Real milliseconds before the attempt counts as unanswered (spec 8: 15 s). */
  timeoutMs: number;
  /** Aborts the attempt (emulator shutting down). */
  signal: AbortSignal;
}

/**
 * Sends one attempt through undici's `request` (the package's own, so agent and client versions
 * match): the body string as is, redirects never followed (a 3xx is a failure), no retries (the
 * delivery schedule is the retry), connected only to the checked addresses. The timeout is
 * real time on purpose: the emulator clock moves virtual time, but a socket waits in real time.
 */
export async function sendDeliveryAttempt(request: AttemptRequest): Promise<AttemptOutcome> {
  const [{ request: undiciRequest }, { deliveryAgent }] = await loadNetwork();
  const started = performance.now();
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const url = new URL(request.url);
    const response = await undiciRequest(url, {
      method: 'POST',
      body: request.body,
      headers: request.headers,
      dispatcher: deliveryAgent(url.origin, request.addresses, request.network),
      signal: AbortSignal.any([timeout, request.signal]),
    });
    // The answer's body is not needed; dropping it frees the socket at once.
    await response.body.dump().catch(() => {});
    const statusCode = response.statusCode;
    if (statusCode >= 200 && statusCode < 300) return { statusCode, error: null, durationMs: elapsed() };
    const error =
      statusCode >= 300 && statusCode < 400
        ? `redirect answered (HTTP ${statusCode}); redirects are not followed`
        : `receiver answered HTTP ${statusCode}`;
    return { statusCode, error, durationMs: elapsed() };
  } catch (failure) {
    const error = timeout.aborted
      ? `no answer within ${request.timeoutMs} ms`
      : request.signal.aborted
        ? 'aborted: the emulator is shutting down'
        : `no answer: ${describeNetworkError(failure)}`;
    return { statusCode: null, error, durationMs: elapsed() };
  }
}

// An error may wrap the socket error (TLS, connect): the innermost says what happened.
function describeNetworkError(failure: unknown): string {
  let current: unknown = failure;
  let text = 'request failed';
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    text = typeof code === 'string' ? `${code} (${current.message})` : current.message;
    current = current.cause;
  }
  return text;
}
