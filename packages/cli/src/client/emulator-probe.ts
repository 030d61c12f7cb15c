import { createControlClient, type EmulatorControl } from '@parley/emulator/control';
import type { CommandContext } from '../context';
import type { ApiSession } from './api-session';
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
  const probe = probeClient(origin, fetchFunction, context.signal);
  const read = (call: (control: EmulatorControl) => Promise<unknown>) => hint(call(probe), context.signal);
  const global = clockOf(await read((control) => control.getClock()));
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
    ? clockOf(await read((control) => control.getWorkspaceClock(workspace)))
    : undefined;
  const clock: ProbedClock =
    own?.ownClock === true ? { ...own, workspaceId: workspace } : { ...global, workspaceId: undefined };
  const control = controlApi(api.credentials.baseUrl, fetchFunction);
  let magic: Promise<Map<string, string>> | undefined;
  return {
    origin,
    clock,
    async magicBehaviour(to) {
      magic ??= read((control) => control.listMagicNumbers({ limit: 100 })).then(magicTable);
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
  const probe = probeClient(origin, fetchFunction, signal);
  const clock =
    workspaceId !== undefined && UUID.test(workspaceId)
      ? probe.getWorkspaceClock(workspaceId)
      : probe.getClock();
  try {
    return clockOf(await hint(clock, signal))?.now;
  } catch {
    return undefined;
  }
}

/** The emulator's control client with the probe's bounds: 64 KiB, 1.5 s, and the command's Ctrl-C. */
function probeClient(
  origin: string,
  fetchFunction: (request: Request) => Promise<Response>,
  signal: AbortSignal,
): EmulatorControl {
  return createControlClient({
    baseUrl: origin,
    fetch: fetchFunction,
    signal,
    timeoutMs: PROBE_TIMEOUT_MS,
    maxAnswerBytes: MAX_PROBE_BYTES,
  });
}

/** A control answer as a hint: undefined when it failed (not ok, too long, too slow, not JSON), unless interrupted. */
async function hint(answer: Promise<unknown>, signal: AbortSignal): Promise<unknown> {
  try {
    return await answer;
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
