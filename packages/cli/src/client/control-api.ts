import {
  type ChaosInput,
  type CreateFaultInput,
  createControlClient,
  type EndpointView,
  type ExportOptions,
  type HarOptions,
  isControlResponseError,
  isEmulatorControlError,
} from '@parley/emulator/control';
import type { WebhookEventType } from '@parley/sdk';
import { EXIT, ExitError } from '../exit-error';
import { innermostCause } from './innermost-cause';

/** A temporary endpoint registered through the emulator's control API: the only answer with its secret. */
export type TemporaryEndpoint = EndpointView & { secret: string };

type Fetch = (request: Request) => Promise<Response>;

// A stopped emulator must not hang a command; moving the clock runs every job that falls due,
// which can take a while after a long advance.
const TIMEOUT_MS = 5_000;
const ADVANCE_TIMEOUT_MS = 120_000;

/** The most of a control answer read (the typed client's bound). */
export { MAX_CONTROL_ANSWER_BYTES } from '@parley/emulator/control';

/**
 * The emulator's control API at the origin of the API base URL (`/_emulator`), through the
 * emulator's typed client; every failure becomes the command's `ExitError`. Only the emulator has
 * this API: against any other server the first call says that the command needs the emulator.
 */
export function controlApi(baseUrl: string, fetchFunction: Fetch) {
  const origin = new URL(baseUrl).origin;
  const client = createControlClient({
    baseUrl: origin,
    fetch: fetchFunction,
    timeoutMs: TIMEOUT_MS,
    advanceTimeoutMs: ADVANCE_TIMEOUT_MS,
  });
  /** Runs a client call; `what` is what an error message says was refused. */
  const call = async <Answer>(what: string, run: () => Promise<Answer>): Promise<Answer> => {
    try {
      return await run();
    } catch (error) {
      throw exitErrorOf(error, origin, what);
    }
  };
  return {
    origin,
    /** The typed client itself, for a command that hands it on (`scenario record`). */
    client,
    call,
    health: () => call('GET /_emulator/health', () => client.health()),
    clock: () => call('GET /_emulator/clock', () => client.getClock()),
    advanceClock: (ms: number) => call('POST /_emulator/clock/advance', () => client.advanceClock(ms)),
    reset: () => call('POST /_emulator/reset', () => client.reset()),
    workspaceClock: (workspaceId: string) =>
      call(`GET /_emulator/workspaces/${encodeURIComponent(workspaceId)}/clock`, () =>
        client.getWorkspaceClock(workspaceId),
      ),
    advanceWorkspaceClock: (workspaceId: string, ms: number) =>
      call(`POST /_emulator/workspaces/${encodeURIComponent(workspaceId)}/clock/advance`, () =>
        client.advanceWorkspaceClock(workspaceId, ms),
      ),
    resetWorkspace: (workspaceId: string) =>
      call(`POST /_emulator/workspaces/${encodeURIComponent(workspaceId)}/reset`, () =>
        client.resetWorkspace(workspaceId),
      ),
    // The flags go as given: the emulator checks them and names the refused field.
    createFault: (body: Record<string, unknown>) =>
      call('the fault', () => client.createFault(body as unknown as CreateFaultInput)),
    listFaults: () =>
      call('GET /_emulator/faults?limit=100', () => client.listFaults({ limit: 100 })).then(
        (page) => page.data,
      ),
    deleteFault: (id: string) =>
      call(`DELETE /_emulator/faults/${encodeURIComponent(id)}`, () => client.deleteFault(id)),
    clearFaults: () => call('DELETE /_emulator/faults', () => client.clearFaults()),
    magicNumbers: () =>
      call('GET /_emulator/magic-numbers?limit=100', () => client.listMagicNumbers({ limit: 100 })).then(
        (page) => page.data,
      ),
    getChaos: (endpointId: string) =>
      call(`GET /_emulator/endpoints/${encodeURIComponent(endpointId)}/chaos`, () =>
        client.getChaos(endpointId),
      ),
    setChaos: (endpointId: string, body: Record<string, unknown>) =>
      call('the chaos settings', () => client.setChaos(endpointId, body as ChaosInput)),
    clearChaos: (endpointId: string) =>
      call(`DELETE /_emulator/endpoints/${encodeURIComponent(endpointId)}/chaos`, () =>
        client.clearChaos(endpointId),
      ),
    createEndpoint: (
      applicationId: string,
      url: string,
      events: readonly string[],
      secret?: string,
      description?: string,
    ) =>
      call('the temporary endpoint', () =>
        client.createEndpoint(applicationId, {
          url,
          events: [...events] as WebhookEventType[],
          ...(secret === undefined ? {} : { secret }),
          ...(description === undefined ? {} : { description }),
        }),
      ),
    exportState: (options: ExportOptions) => call('GET /_emulator/export', () => client.export(options)),
    importState: (bundle: unknown) => call('the bundle', () => client.import(bundle)),
    har: (options: HarOptions) => call('GET /_emulator/har', () => client.har(options)),
    /** True when the endpoint is gone (removed now, or already). Never throws: it runs on the way out. */
    async deleteEndpoint(id: string): Promise<boolean> {
      return client.deleteEndpoint(id).then(
        () => true,
        (error: unknown) => isEmulatorControlError(error) && error.code === 'not_found',
      );
    },
  };
}

/** The control API client of {@link controlApi}. */
export type ControlApi = ReturnType<typeof controlApi>;

/**
 * A failed control call as the command's error: unreachable or not the emulator (exit 3), or
 * refused by it (exit 1, with the emulator's error body for `--json`).
 */
export function exitErrorOf(error: unknown, origin: string, what: string): ExitError {
  if (isEmulatorControlError(error)) {
    return new ExitError(EXIT.api, `the emulator refused ${what}: ${error.message} (${error.code})`, {
      error: {
        code: error.code,
        message: error.message,
        request_id: error.requestId ?? null,
        details: error.details,
      },
    });
  }
  if (isControlResponseError(error)) {
    if (error.reason === 'too_large') {
      return new ExitError(
        EXIT.config,
        `${origin} answered ${what} with more than 1 MiB, which no emulator answer is: reading stopped there`,
      );
    }
    // A body that is not the emulator's (or could not be read) on 2xx or 404: no control API there.
    if (error.status === 404 || (error.status >= 200 && error.status < 300)) {
      return new ExitError(
        EXIT.config,
        `${origin} has no emulator control API: this command works against the emulator (parley emulator start)`,
      );
    }
    return new ExitError(EXIT.api, `the emulator refused ${what}: HTTP ${error.status}`);
  }
  return new ExitError(
    EXIT.config,
    `could not reach the emulator control API at ${origin}: ${errorCode(error)}. Start it with \`parley emulator start\`, or pass its --base-url`,
  );
}

function errorCode(error: unknown): string {
  return innermostCause(error).code ?? (error as Error).message;
}
