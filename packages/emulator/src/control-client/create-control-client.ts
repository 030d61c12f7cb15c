import type { ControlPageQuery, EmulatorControl } from '../core/control-types';
import {
  controlPath as at,
  type ControlCall,
  type ControlFetch,
  MAX_CONTROL_ANSWER_BYTES,
  sendControlCall,
} from './_control-request';

/** Options of {@link createControlClient}. */
export interface ControlClientOptions {
  /**
   * The emulator's origin, `http://127.0.0.1:4010` by default; its API base URL (ending in `/v1`)
   * is taken too. Calls go to `/_emulator/…` beside it.
   */
  baseUrl?: string;
  /** The fetch to send each `Request` with (default: the global one; `emulator.fetch` works too). */
  fetch?: ControlFetch;
  /** Real milliseconds a call may take before it is aborted (default 30,000). */
  timeoutMs?: number;
  /** The same for clock advances, which run every job that falls due (default 120,000). */
  advanceTimeoutMs?: number;
  /** Aborts every call made while it is aborted (Ctrl-C): the call rejects with its reason. */
  signal?: AbortSignal;
  /** The most of an answer read, at most and by default 1 MiB: a longer one is a `too_large` error. */
  maxAnswerBytes?: number;
}

/** The most of an export bundle or a HAR read: the emulator's `MAX_BUNDLE_BYTES` (64 MiB). */
const MAX_BUNDLE_ANSWER_BYTES = 64 * 1024 * 1024;

/** The emulator's address when none is given (its default port, DESIGN §2). */
export const DEFAULT_CONTROL_BASE_URL = 'http://127.0.0.1:4010';

/**
 * The emulator's control API over HTTP: exactly the methods and answers of `emulator.control` in
 * process (lists are the list envelope). A refusal throws an `EmulatorControlError` (the spec's
 * error: `status`, `code`, `message`, `details`); an answer that is no control answer (not JSON,
 * past 1 MiB) a `ControlResponseError`; a failed connection rejects as fetch does.
 *
 * @example
 * const control = createControlClient({ baseUrl: process.env.PARLEY_BASE_URL });
 * await control.reset();
 * const { data } = await control.listDeliveries({ endpointId });
 */
export function createControlClient(options: ControlClientOptions = {}): EmulatorControl {
  const transport = {
    root: rootOf(options.baseUrl ?? DEFAULT_CONTROL_BASE_URL),
    fetch: options.fetch ?? ((request: Request) => fetch(request)),
    maxAnswerBytes: Math.min(options.maxAnswerBytes ?? MAX_CONTROL_ANSWER_BYTES, MAX_CONTROL_ANSWER_BYTES),
    signal: options.signal,
  };
  const timeoutMs = options.timeoutMs ?? 30_000;
  const advanceTimeoutMs = options.advanceTimeoutMs ?? 120_000;
  // biome-ignore lint/suspicious/noExplicitAny: each method states its answer's type in EmulatorControl
  const send = (call: Omit<ControlCall, 'timeoutMs'> & { timeoutMs?: number }): Promise<any> =>
    sendControlCall(transport, { timeoutMs, ...call });
  const get = (path: string, query?: ControlCall['query']) =>
    send({ method: 'GET', path, ...(query && { query }) });
  const post = (path: string, body?: unknown) => send({ method: 'POST', path, body });
  const remove = (path: string) => send({ method: 'DELETE', path });
  const advance = (path: string, ms: number) =>
    send({ method: 'POST', path, body: { ms }, timeoutMs: advanceTimeoutMs });
  const large = { ...transport, maxAnswerBytes: Math.max(transport.maxAnswerBytes, MAX_BUNDLE_ANSWER_BYTES) };
  // biome-ignore lint/suspicious/noExplicitAny: each method states its answer's type in EmulatorControl
  const sendLarge = (call: ControlCall): Promise<any> => sendControlCall(large, call);
  const page = ({ limit, cursor }: ControlPageQuery = {}) => ({ limit, cursor });
  return {
    health: () => get('health'),
    reset: () => post('reset'),
    getClock: () => get('clock'),
    advanceClock: (ms) => advance('clock/advance', ms),
    idle: ({ timeoutMs: wait } = {}) =>
      send({
        method: 'GET',
        path: 'idle',
        query: { timeout_ms: wait },
        // The emulator answers at the wait's end: the call may last that long and its own time.
        timeoutMs: (Number.isInteger(wait) && wait! > 0 ? Math.min(wait!, 60_000) : 10_000) + timeoutMs,
      }),
    createWorkspace: (input) => post('workspaces', input),
    listWorkspaces: (query) => get('workspaces', page(query)),
    getWorkspaceClock: (id) => get(at`workspaces/${id}/clock`),
    advanceWorkspaceClock: (id, ms) => advance(at`workspaces/${id}/clock/advance`, ms),
    resetWorkspace: (id) => post(at`workspaces/${id}/reset`),
    createApplication: (input) => post('applications', input),
    listApplications: ({ workspaceId, ...query } = {}) =>
      get('applications', { ...page(query), workspace_id: workspaceId }),
    createKey: (applicationId, input) => post(at`applications/${applicationId}/keys`, input),
    revokeKey: (id) => remove(at`keys/${id}`),
    createEndpoint: (applicationId, input) => post(at`applications/${applicationId}/endpoints`, input),
    listEndpoints: ({ applicationId, ...query } = {}) =>
      get('endpoints', { ...page(query), application_id: applicationId }),
    updateEndpoint: (id, input) => send({ method: 'PATCH', path: at`endpoints/${id}`, body: input }),
    deleteEndpoint: (id) => remove(at`endpoints/${id}`),
    rotateSecret: (id) => post(at`endpoints/${id}/rotate-secret`),
    testEndpoint: (id) => post(at`endpoints/${id}/test`),
    setChaos: (endpointId, input) =>
      send({ method: 'PUT', path: at`endpoints/${endpointId}/chaos`, body: input }),
    getChaos: (endpointId) => get(at`endpoints/${endpointId}/chaos`),
    clearChaos: (endpointId) => remove(at`endpoints/${endpointId}/chaos`),
    listDeliveries: ({ endpointId, applicationId, ...query } = {}) =>
      get('deliveries', { ...page(query), endpoint_id: endpointId, application_id: applicationId }),
    replayDelivery: (id) => post(at`deliveries/${id}/replay`),
    usage: (applicationId) => get('usage', { application_id: applicationId }),
    createConnection: (applicationId, input) => post(at`applications/${applicationId}/connections`, input),
    disconnectConnection: (id) => post(at`connections/${id}/disconnect`),
    receiveInbound: (connectionId, input) => post(at`connections/${connectionId}/inbound`, input),
    listMessages: ({ applicationId, ...query } = {}) =>
      get('messages', { ...page(query), application_id: applicationId }),
    listApplicationConnections: (applicationId, query) =>
      get(at`applications/${applicationId}/connections`, page(query)),
    sendMessage: (applicationId, input) => post(at`applications/${applicationId}/messages`, input),
    listConversations: (applicationId, { connectionId, ...query } = {}) =>
      get(at`applications/${applicationId}/conversations`, { ...page(query), connection_id: connectionId }),
    getConversation: (applicationId, { connectionId, number }) =>
      get(at`applications/${applicationId}/conversation`, { connection_id: connectionId, number }),
    messageAsCustomer: (applicationId, input) =>
      post(at`applications/${applicationId}/conversation/messages`, input),
    listEvents: ({ applicationId, ...query } = {}) =>
      get('events', { ...page(query), application_id: applicationId }),
    listActivity: ({ applicationId, type, status, ...query } = {}) =>
      get('activity', { ...page(query), application_id: applicationId, type, status }),
    createFault: (input) => post('faults', input),
    listFaults: (query) => get('faults', page(query)),
    deleteFault: (id) => remove(at`faults/${id}`),
    clearFaults: () => remove('faults'),
    listMagicNumbers: (query) => get('magic-numbers', page(query)),
    // A bundle or a HAR may pass the 1 MiB of other answers: read up to the bundle bound.
    export: ({ workspaceId, includeSecrets } = {}) =>
      sendLarge({
        method: 'GET',
        path: 'export',
        query: { workspace_id: workspaceId, include_secrets: includeSecrets === true ? 'true' : undefined },
        timeoutMs: advanceTimeoutMs,
      }),
    import: (bundle) => send({ method: 'POST', path: 'import', body: bundle, timeoutMs: advanceTimeoutMs }),
    har: ({ since, workspaceId, deliveries } = {}) =>
      sendLarge({
        method: 'GET',
        path: 'har',
        query: { since, workspace_id: workspaceId, deliveries: deliveries === true ? 'true' : undefined },
        timeoutMs: advanceTimeoutMs,
      }),
  };
}

/** The emulator's root URL from its origin or its API base URL (`…/v1`), without a trailing slash. */
function rootOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${url.origin}${path}`;
}
