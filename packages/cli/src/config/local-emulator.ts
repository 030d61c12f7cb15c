import { createControlClient, DEFAULT_CONTROL_BASE_URL, DEFAULT_SANDBOX_KEY } from '@parley/emulator/control';

/** An emulator found on loopback, and the key and base URL a command can use with it. */
export interface LocalEmulator {
  /** Its origin, e.g. `http://127.0.0.1:4010`. */
  origin: string;
  /** Its API base URL (`/v1` under the origin). */
  baseUrl: string;
  /** Its ready sandbox key (the same in every emulator, DESIGN §4). */
  apiKey: string;
}

/** What a user sets to use the local emulator by name (the error of a missing key shows them). */
export const LOCAL_EMULATOR_VALUES = {
  baseUrl: `${DEFAULT_CONTROL_BASE_URL}/v1`,
  apiKey: DEFAULT_SANDBOX_KEY,
} as const;

/**
 * Internal, for tests only: the loopback origin probed instead of 127.0.0.1:4010, which a test
 * cannot own while other tests (the root demo) run; any other value (`off`) probes nothing.
 */
export const PROBE_ORIGIN_VARIABLE = 'PARLEY_TEST_LOCAL_EMULATOR_ORIGIN';

// A probe is a guess on an error path: loopback answers in microseconds, so a second is ample,
// and a health answer is a few hundred bytes.
const PROBE_TIMEOUT_MS = 1_000;
const MAX_PROBE_BYTES = 16 * 1024;
const LOOPBACK_ORIGIN = /^http:\/\/(?:127\.0\.0\.1|\[::1\]):\d{1,5}$/;

/**
 * The origin to probe: the emulator's default address, or the tests' loopback override. An
 * override that is not a loopback origin probes nothing (undefined), never another host.
 */
export function probeOrigin(env: Record<string, string | undefined>): string | undefined {
  const override = env[PROBE_ORIGIN_VARIABLE];
  if (override === undefined || override === '') return DEFAULT_CONTROL_BASE_URL;
  return LOOPBACK_ORIGIN.test(override) ? override : undefined;
}

/**
 * The emulator answering `GET /_emulator/health` on 127.0.0.1:4010 (one bounded request: 1 s,
 * 16 KiB), or undefined when nothing there answers as an emulator does. Never throws.
 */
export async function findLocalEmulator(
  env: Record<string, string | undefined>,
  fetchFunction?: (request: Request) => Promise<Response>,
): Promise<LocalEmulator | undefined> {
  const origin = probeOrigin(env);
  if (origin === undefined) return undefined;
  const control = createControlClient({
    baseUrl: origin,
    timeoutMs: PROBE_TIMEOUT_MS,
    maxAnswerBytes: MAX_PROBE_BYTES,
    ...(fetchFunction && { fetch: fetchFunction }),
  });
  try {
    const health: unknown = await control.health();
    const { ok, version } = (health ?? {}) as Record<string, unknown>;
    if (ok !== true || typeof version !== 'string') return undefined;
  } catch {
    return undefined;
  }
  return { origin, baseUrl: `${origin}/v1`, apiKey: DEFAULT_SANDBOX_KEY };
}
