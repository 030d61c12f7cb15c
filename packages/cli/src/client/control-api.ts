import { EXIT, ExitError } from '../exit-error';
import { readAtMost } from './bounded-body';
import { innermostCause } from './innermost-cause';

/** A temporary endpoint registered through the emulator's control API. */
export interface TemporaryEndpoint {
  id: string;
  url: string;
  events: string[];
  secret: string;
}

/** `GET /_emulator/health`: `counts` and `persistence` as the emulator gives them. */
export interface EmulatorHealth {
  ok: boolean;
  version: string;
  counts?: Record<string, number>;
  persistence?: { ok: boolean; error?: string };
}

/** `GET /_emulator/clock`. */
export interface EmulatorClock {
  now: string;
  mode: 'real' | 'frozen';
}

/** `GET /_emulator/workspaces/{id}/clock`: `own_clock` false when it runs on the global clock. */
export interface WorkspaceClock extends EmulatorClock {
  workspace_id: string;
  own_clock: boolean;
}

/** A fault as `GET /_emulator/faults` lists it (see docs/emulator.md#faults). */
export interface EmulatorFault {
  object: 'fault';
  id: string;
  method: string | null;
  path: string | null;
  key_id: string | null;
  key_prefix: string | null;
  times: number;
  remaining: number;
  workspace_id: string | null;
  created_at: string;
  fault:
    | { status: number; code: string; retry_after?: number }
    | { hang: true }
    | { drop: true }
    | { delay_ms: number };
}

/** One magic sandbox recipient (`GET /_emulator/magic-numbers`). */
export interface MagicNumber {
  number: string;
  behaviour: string;
  description: string;
}

/** An endpoint's chaos (`GET /_emulator/endpoints/{id}/chaos`): one entry per kind set. */
export interface EndpointChaos {
  endpoint_id: string;
  seed: number | null;
  applied: Record<string, number>;
  [kind: string]: unknown;
}

type Fetch = (request: Request) => Promise<Response>;

interface CallOptions {
  body?: unknown;
  timeoutMs?: number;
  /** What the error message says was refused. */
  what?: string;
}

// A stopped emulator must not hang a command; moving the clock runs every job that falls due,
// which can take a while after a long advance.
const TIMEOUT_MS = 5_000;
const ADVANCE_TIMEOUT_MS = 120_000;
/** The most of a control answer read: a page of 100 faults is a few tens of KB. */
export const MAX_CONTROL_ANSWER_BYTES = 1024 * 1024;

/**
 * The emulator's control API at the origin of the API base URL (`/_emulator`). Only the emulator
 * has it: against any other server the first call says that the command needs the emulator.
 */
export function controlApi(baseUrl: string, fetchFunction: Fetch) {
  const origin = new URL(baseUrl).origin;
  const call = async <Answer>(
    method: string,
    path: string,
    { body, timeoutMs = TIMEOUT_MS, what = `${method} /_emulator/${path}` }: CallOptions = {},
  ): Promise<Answer> => {
    let response: Response;
    const init: RequestInit = { method, signal: AbortSignal.timeout(timeoutMs) };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { 'content-type': 'application/json' };
    }
    const request = new Request(`${origin}/_emulator/${path}`, init);
    try {
      response = await fetchFunction(request);
    } catch (error) {
      throw new ExitError(
        EXIT.config,
        `could not reach the emulator control API at ${origin}: ${errorCode(error)}. Start it with \`parley emulator start\`, or pass its --base-url`,
      );
    }
    if (response.status === 204) return undefined as Answer;
    const read = await readAtMost(response.body, MAX_CONTROL_ANSWER_BYTES, request).catch(() => undefined);
    if (read?.cut) {
      throw new ExitError(
        EXIT.config,
        `${origin} answered ${what} with more than 1 MiB, which no emulator answer is: reading stopped there`,
      );
    }
    const answer = parsedJson(read?.bytes) as
      | (Answer & {
          error?: { code: string; message: string; request_id?: string; details?: Record<string, unknown> };
        })
      | undefined;
    if (response.ok && answer !== undefined) return answer;
    if (answer?.error === undefined && (response.status === 404 || response.ok)) {
      throw new ExitError(
        EXIT.config,
        `${origin} has no emulator control API: this command works against the emulator (parley emulator start)`,
      );
    }
    const reason = answer?.error
      ? `${answer.error.message} (${answer.error.code})`
      : `HTTP ${response.status}`;
    // The emulator's own error body, for --json and for a command that names the refused flag.
    const errorBody = answer?.error && {
      error: {
        code: answer.error.code,
        message: answer.error.message,
        request_id: answer.error.request_id ?? null,
        ...(answer.error.details === undefined ? {} : { details: answer.error.details }),
      },
    };
    throw new ExitError(EXIT.api, `the emulator refused ${what}: ${reason}`, errorBody);
  };
  return {
    origin,
    health: () => call<EmulatorHealth>('GET', 'health'),
    clock: () => call<EmulatorClock>('GET', 'clock'),
    advanceClock: (ms: number) =>
      call<{ now: string }>('POST', 'clock/advance', { body: { ms }, timeoutMs: ADVANCE_TIMEOUT_MS }),
    reset: () => call<{ ok: true }>('POST', 'reset', { body: {} }),
    workspaceClock: (workspaceId: string) =>
      call<WorkspaceClock>('GET', `workspaces/${encodeURIComponent(workspaceId)}/clock`),
    advanceWorkspaceClock: (workspaceId: string, ms: number) =>
      call<{ workspace_id: string; now: string }>(
        'POST',
        `workspaces/${encodeURIComponent(workspaceId)}/clock/advance`,
        { body: { ms }, timeoutMs: ADVANCE_TIMEOUT_MS },
      ),
    resetWorkspace: (workspaceId: string) =>
      call<{ ok: true; workspace_id: string }>(
        'POST',
        `workspaces/${encodeURIComponent(workspaceId)}/reset`,
        {
          body: {},
        },
      ),
    createFault: (body: Record<string, unknown>) =>
      call<EmulatorFault>('POST', 'faults', { body, what: 'the fault' }),
    listFaults: () => call<{ data: EmulatorFault[] }>('GET', 'faults?limit=100').then((page) => page.data),
    deleteFault: (id: string) => call<undefined>('DELETE', `faults/${encodeURIComponent(id)}`),
    clearFaults: () => call<undefined>('DELETE', 'faults'),
    magicNumbers: () =>
      call<{ data: MagicNumber[] }>('GET', 'magic-numbers?limit=100').then((page) => page.data),
    getChaos: (endpointId: string) =>
      call<EndpointChaos>('GET', `endpoints/${encodeURIComponent(endpointId)}/chaos`),
    setChaos: (endpointId: string, body: Record<string, unknown>) =>
      call<EndpointChaos>('PUT', `endpoints/${encodeURIComponent(endpointId)}/chaos`, {
        body,
        what: 'the chaos settings',
      }),
    clearChaos: (endpointId: string) =>
      call<undefined>('DELETE', `endpoints/${encodeURIComponent(endpointId)}/chaos`),
    createEndpoint: (applicationId: string, url: string, events: readonly string[], secret?: string) =>
      call<TemporaryEndpoint>('POST', `applications/${encodeURIComponent(applicationId)}/endpoints`, {
        body: { url, events, ...(secret === undefined ? {} : { secret }) },
        what: 'the temporary endpoint',
      }),
    /** True when the endpoint is gone (removed now, or already). Never throws: it runs on the way out. */
    async deleteEndpoint(id: string): Promise<boolean> {
      return call('DELETE', `endpoints/${encodeURIComponent(id)}`).then(
        () => true,
        (error: ExitError) => error.message.includes('(not_found)'),
      );
    },
  };
}

/** The control API client of {@link controlApi}. */
export type ControlApi = ReturnType<typeof controlApi>;

function parsedJson(bytes: Uint8Array | undefined): unknown {
  try {
    return bytes === undefined ? undefined : JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

function errorCode(error: unknown): string {
  return innermostCause(error).code ?? (error as Error).message;
}
