import type { CommandContext } from '../context';
import type { ApiSession } from './api-session';
import { readAtMost } from './bounded-body';
import { controlApi } from './control-api';

/** The clock a message lives by on the emulator: its workspace's own, else the global one. */
export interface ProbedClock {
  /** Emulator time, ISO. */
  now: string;
  mode: 'real' | 'frozen';
  /** Set when the workspace has a clock of its own: moving it takes `--workspace`. */
  workspaceId: string | undefined;
}

/** The emulator behind a base URL, as `send --wait` and `messages get --watch` need it. */
export interface EmulatorTarget {
  origin: string;
  /** The clock as it was when probed. */
  clock: ProbedClock;
  /** The behaviour of a magic sandbox recipient (`read`, `stays_sent`, …), or undefined. */
  magicBehaviour(to: string): Promise<string | undefined>;
  /** Moves that clock by `ms`; every job that falls due runs before it returns. */
  advance(ms: number): Promise<void>;
}

// A probe is a hint, not the command's work: short, small, and never an error of its own.
const PROBE_TIMEOUT_MS = 1_500;
const MAX_PROBE_BYTES = 64 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether the base URL's origin is an emulator, and which clock the key's workspace runs on:
 * `GET /_emulator/clock` answering a clock (a real API has no such route), then the workspace's
 * clock (`GET /v1/status` names it). Each read is bounded (64 KiB, 1.5 s); anything else than
 * an emulator's answer is undefined, never an error. Ctrl-C (the context's signal) rejects.
 */
export async function probeEmulator(
  api: ApiSession,
  context: CommandContext,
): Promise<EmulatorTarget | undefined> {
  const origin = new URL(api.credentials.baseUrl).origin;
  const fetchFunction = context.fetch ?? ((request: Request) => fetch(request));
  const read = (path: string) => readControl(origin, path, fetchFunction, context.signal);
  const global = clockOf(await read('clock'));
  if (!global) return undefined;
  // Without the workspace (a key that cannot read its status), the global clock is the guess.
  const workspace = await api
    .call((client) => client.status.get())
    .then(
      (status) => status.workspace_id,
      (error: unknown) => {
        if (context.signal.aborted) throw error;
        return '';
      },
    );
  const own = UUID.test(workspace)
    ? clockOf(await read(`workspaces/${encodeURIComponent(workspace)}/clock`))
    : undefined;
  const clock: ProbedClock =
    own?.ownClock === true ? { ...own, workspaceId: workspace } : { ...global, workspaceId: undefined };
  const control = controlApi(api.credentials.baseUrl, fetchFunction);
  let magic: Promise<Map<string, string>> | undefined;
  return {
    origin,
    clock,
    async magicBehaviour(to) {
      magic ??= read('magic-numbers?limit=100').then(magicTable);
      return (await magic).get(to);
    },
    async advance(ms) {
      if (clock.workspaceId === undefined) await control.advanceClock(ms);
      else await control.advanceWorkspaceClock(clock.workspaceId, ms);
    },
  };
}

/**
 * The emulator's time now on the clock of `workspaceId` (its own, or the global one it shares),
 * or undefined when it cannot tell within the probe's bounds. Never throws.
 */
export async function emulatorNow(
  origin: string,
  workspaceId: string | undefined,
  fetchFunction: (request: Request) => Promise<Response>,
  signal: AbortSignal,
): Promise<string | undefined> {
  const path =
    workspaceId !== undefined && UUID.test(workspaceId)
      ? `workspaces/${encodeURIComponent(workspaceId)}/clock`
      : 'clock';
  try {
    return clockOf(await readControl(origin, path, fetchFunction, signal))?.now;
  } catch {
    return undefined;
  }
}

/** The JSON of a small control answer, or undefined: not ok, too long, too slow, not JSON. */
async function readControl(
  origin: string,
  path: string,
  fetchFunction: (request: Request) => Promise<Response>,
  signal: AbortSignal,
): Promise<unknown> {
  const request = new Request(`${origin}/_emulator/${path}`, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.any([signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)]),
  });
  try {
    const response = await fetchFunction(request);
    if (!response.ok) {
      // Drained, not cancelled: a 404 page is small, and the connection goes back to the pool.
      await readAtMost(response.body, MAX_PROBE_BYTES, request);
      return undefined;
    }
    const { bytes, cut } = await readAtMost(response.body, MAX_PROBE_BYTES, request);
    return cut ? undefined : JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
}

function clockOf(answer: unknown): { now: string; mode: 'real' | 'frozen'; ownClock: boolean } | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const { now, mode, own_clock } = answer as Record<string, unknown>;
  if (typeof now !== 'string' || !Number.isFinite(Date.parse(now))) return undefined;
  if (mode !== 'real' && mode !== 'frozen') return undefined;
  return { now, mode, ownClock: own_clock === true };
}

function magicTable(answer: unknown): Map<string, string> {
  const table = new Map<string, string>();
  const data = (answer as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data)) return table;
  for (const entry of data) {
    const { number, behaviour } = (entry ?? {}) as Record<string, unknown>;
    if (typeof number === 'string' && typeof behaviour === 'string') table.set(number, behaviour);
  }
  return table;
}
