import { EXIT, ExitError } from '../../exit-error';

/** A temporary endpoint registered through the emulator's control API. */
export interface TemporaryEndpoint {
  id: string;
  url: string;
  events: string[];
  secret: string;
}

/**
 * The emulator's control API at the origin of the API base URL (DESIGN §4). Only the emulator
 * has it: against any other server the first call explains that `listen` needs the emulator.
 */
export function controlApi(baseUrl: string, fetchFunction: (request: Request) => Promise<Response>) {
  const origin = new URL(baseUrl).origin;
  const call = async (method: string, path: string, body?: unknown): Promise<Response> => {
    // A stopped emulator must not keep `listen` from exiting.
    const signal = AbortSignal.timeout(5_000);
    try {
      const init: RequestInit = { method, signal };
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        init.headers = { 'content-type': 'application/json' };
      }
      return await fetchFunction(new Request(`${origin}/_emulator/${path}`, init));
    } catch (error) {
      throw new ExitError(
        EXIT.config,
        `could not reach the emulator control API at ${origin}: ${errorCode(error)}. Start it with \`parley emulator start\``,
      );
    }
  };
  return {
    async createEndpoint(
      applicationId: string,
      url: string,
      events: readonly string[],
    ): Promise<TemporaryEndpoint> {
      const response = await call('POST', `applications/${encodeURIComponent(applicationId)}/endpoints`, {
        url,
        events,
      });
      if (response.status === 404) {
        throw new ExitError(
          EXIT.config,
          `${origin} has no emulator control API: \`parley listen\` works against the emulator (parley emulator start)`,
        );
      }
      const answer = (await response.json().catch(() => ({}))) as Partial<TemporaryEndpoint> & {
        error?: { code: string; message: string; request_id?: string };
      };
      if (!response.ok || !answer.id || !answer.secret) {
        const message = answer.error
          ? `${answer.error.message} (${answer.error.code})`
          : `HTTP ${response.status}`;
        throw new ExitError(EXIT.api, `the emulator refused the temporary endpoint: ${message}`);
      }
      return answer as TemporaryEndpoint;
    },
    async deleteEndpoint(id: string): Promise<boolean> {
      const response = await call('DELETE', `endpoints/${encodeURIComponent(id)}`).catch(() => undefined);
      return response !== undefined && (response.ok || response.status === 404);
    },
  };
}

function errorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code ?? (error as Error).message;
}
