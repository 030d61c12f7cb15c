import { join } from 'node:path';
import type { H3 } from 'h3';
import type { Clock, ClockMode } from './clock/clock-types';
import { createTimeline } from './clock/create-timeline';
import { resumedTime } from './clock/resumed-time';
import type { StateBundle } from './core/bundle-types';
import { type ControlRuntime, createControl, type EmulatorControl } from './core/control';
import { DEFAULT_SANDBOX_KEY } from './core/defaults';
import { EmulatorCore } from './core/emulator-core';
import { parseBundle } from './core/import-bundle';
import { createInitialState } from './core/initial-state';
import { ClockRangeError } from './core/workspace-clocks';
import { workspaceClock } from './core/workspaces';
import { CLOCK_LATEST_MS } from './domain/clock-range';
import { RETRY_SCHEDULES, type RetryScheduleName } from './domain/retry-schedule';
import { createHttpApp } from './http/create-app';
import { SNAPSHOT } from './store/_load-directory';
import { DataDirError } from './store/data-dir-errors';
import { filePersistence } from './store/file-persistence';
import { parseSeed } from './store/parse-seed';
import { memoryPersistence, type Persistence } from './store/persistence';
import type { SeedFile } from './store/seed-types';
import { hydrateState } from './store/state';
import { EMULATOR_VERSION } from './version';
import type { WebhookNetwork } from './webhooks/delivery-attempt';
import type { UrlPolicy } from './webhooks/url-policy';

/** Options of {@link createEmulator}. */
export interface EmulatorOptions {
  /** `real` (default) follows the wall clock; `frozen` moves only through `clock.advance`. */
  clock?: ClockMode;
  /** Per-minute rate limits (default on). Off: nothing is refused and no `RateLimit-*` headers are sent. */
  rateLimits?: boolean;
  /** Webhook URL policy: `local` (default) also accepts loopback http(s); `strict` is production's rule. */
  urlPolicy?: UrlPolicy;
  /** Directory where state survives restarts; without it, state lives in memory. */
  dataDir?: string;
  /** Workspaces, applications, keys and endpoints to create at start (and on reset). */
  seed?: SeedFile;
  /** Start time in ms since the epoch (default: now). */
  now?: number;
  /**
   * Start from an export bundle (`GET /_emulator/export`, parsed JSON): its records, clocks and
   * activity, in place of the seed and of a data dir's previous state (the data dir then holds the
   * bundle's). Checked whole first: a wrong one throws a `validation_error` naming the path in it.
   * The clock runs in `clock` when given, else in the bundle's mode.
   */
  import?: StateBundle;
  /**
   * How failed webhook attempts are retried: `real` (default) min(6 h, 30 s × 2^k) over 12 attempts;
   * `fast` the same shape 1,200 times faster (12 attempts in 61.55 s); `none` one attempt, then failed.
   */
  retrySchedule?: RetryScheduleName;
  /**
   * For tests of webhook URL rules, never needed otherwise: the host resolver the URL policy asks
   * (default `dns.lookup`), `dial` to send a checked address's socket to a local stand-in, and `ca`
   * to trust a test certificate. Host header and TLS name stay the endpoint URL's.
   */
  webhookNetwork?: WebhookNetwork;
}

/** A running emulator, usable in process without a port. */
export interface Emulator {
  /**
   * The whole web-standard app: `/v1/*`, `/_emulator/*` and the console at `/`. Rejects with
   * `TypeError: fetch failed` where a real server would reset the connection (an injected drop).
   */
  fetch(request: Request): Promise<Response>;
  /** The deterministic sandbox key of the default sandbox application, holding every scope. */
  readonly sandboxKey: string;
  /**
   * The global clock: the seed workspace's and every workspace's without a clock of its own; in
   * `frozen` mode `await emulator.clock.advance(5_000)` moves all their timers.
   */
  readonly clock: Clock;
  /**
   * The clock of one workspace: its own (created with `control.createWorkspace({ name, clock:
   * 'frozen' })`), whose `advance` runs that workspace's jobs alone; for a workspace on the global
   * clock `advance` rejects (409 `workspace_clock_shared`). An unknown id throws (404).
   *
   * @example
   * const { id } = await emulator.control.createWorkspace({ name: 'worker 3', clock: 'frozen' });
   * await emulator.workspaceClock(id).advance(5_000);
   */
  workspaceClock(workspaceId: string): Clock;
  /** The control API (DESIGN §4) as functions. */
  readonly control: EmulatorControl;
  /** Resolves once the seed and persisted state are loaded (`fetch` waits for it by itself). */
  readonly ready: Promise<void>;
  /** True when the state came from `dataDir` (a previous run), in which case no seed was applied. */
  readonly restored: boolean;
  /** Runs every job already due and resolves when no webhook delivery attempt is in flight. */
  idle(): Promise<void>;
  /** Persists (with a data dir), stops every timer and aborts in-flight deliveries. */
  close(): Promise<void>;
}

/**
 * Creates an emulator of the whole Parley sandbox.
 *
 * @example
 * const emulator = createEmulator({ clock: 'frozen' });
 * const parley = new Parley({ apiKey: emulator.sandboxKey, baseUrl: 'http://127.0.0.1:4010/v1', fetch: emulator.fetch });
 */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  // An invalid seed fails here, synchronously, with the exact place named (SeedError).
  if (options.seed) parseSeed(options.seed);
  return assembleEmulator(options).emulator;
}

/**
 * Runs `build`; a clock it restores out of range (`ClockRangeError`) from the data dir the state
 * came from is that dir's snapshot's fault, where clocks are kept: a {@link DataDirError} naming it
 * (the bin exits 2).
 */
function restoringClocks<Built>(restoredFrom: string | undefined, build: () => Built): Built {
  try {
    return build();
  } catch (error) {
    if (!(restoredFrom && error instanceof ClockRangeError)) throw error;
    const file = join(restoredFrom, SNAPSHOT);
    throw new DataDirError(
      file,
      'ERANGE',
      `${file} holds a clock the emulator cannot move through: ${error.message}. Move the file away to start from an empty state`,
    );
  }
}

/**
 * Builds an emulator and exposes its h3 app, for the server's Node bridge. `persistence` is for
 * tests that simulate a failing disk; it defaults to the data dir's (or memory without one).
 */
export function assembleEmulator(
  options: EmulatorOptions,
  persistence: Persistence = options.dataDir ? filePersistence(options) : memoryPersistence,
): { emulator: Emulator; app: H3 } {
  const imported =
    options.import === undefined ? undefined : parseBundle(structuredClone(options.import), EMULATOR_VERSION);
  const previous = persistence.load();
  const loaded = imported ? undefined : previous;
  const mode = options.clock ?? imported?.clock.mode ?? 'real';
  const savedNow = loaded && resumedTime(loaded.clock, CLOCK_LATEST_MS);
  const start = imported?.clock.now ?? savedNow ?? options.now;
  const timeline = createTimeline({
    mode,
    latest: CLOCK_LATEST_MS,
    ...(start === undefined ? {} : { now: start }),
  });
  const core = restoringClocks(
    loaded ? options.dataDir : undefined,
    () =>
      new EmulatorCore({
        timeline,
        rateLimits: options.rateLimits ?? true,
        urlPolicy: options.urlPolicy ?? 'local',
        webhookNetwork: options.webhookNetwork,
        retrySchedule: RETRY_SCHEDULES[options.retrySchedule ?? 'real'],
        persistence,
        state: imported ? imported.state : loaded ? hydrateState(loaded.state) : createInitialState(),
      }),
  );
  persistence.attach(() => ({ state: core.state, clock: timeline.snapshot() }));
  const seedState = async () => {
    await core.replaceState(createInitialState());
    if (options.seed) {
      const { applySeed } = await import('./core/apply-seed');
      await applySeed(core, options.seed);
    }
  };
  const prepare = async () => {
    if (imported) {
      core.restoreTimers();
      core.activity.restore(imported.activity.items, imported.activity.last_seq);
    } else if (loaded) core.restoreTimers();
    else if (options.seed) await seedState();
    // The first snapshot exists before any send is journaled, so a journal always has a base.
    if (core.durable) await persistence.flush();
  };
  const runtime: ControlRuntime = {
    core,
    reset: seedState,
    ready: () => readyPromise,
    commit: () => persistence.flush(),
    version: EMULATOR_VERSION,
  };
  const control = createControl(runtime);
  const app = createHttpApp(core, control, {
    renderConsole: async () => {
      const { renderConsolePage } = await import('./console/console-page');
      return renderConsolePage(await control.getClock());
    },
  });
  let ready = false;
  const readyPromise = prepare().then(() => {
    ready = true;
  });
  readyPromise.catch(() => {});
  let closed: Promise<void> | undefined;
  const emulator: Emulator = {
    fetch: async (request) => {
      if (!ready) await readyPromise;
      const response = await app.fetch(request);
      // An injected drop (`/_emulator/faults`): what fetch does when a connection is reset.
      if (response.type === 'error') {
        throw new TypeError('fetch failed', {
          cause: new Error('connection reset by the emulator (injected fault)'),
        });
      }
      return response;
    },
    sandboxKey: DEFAULT_SANDBOX_KEY,
    clock: timeline.clock,
    workspaceClock: (workspaceId) => ({
      get mode() {
        return workspaceClock(core, workspaceId).mode;
      },
      now: () => Date.parse(workspaceClock(core, workspaceId).now),
      advance: async (ms) => {
        await control.advanceWorkspaceClock(workspaceId, ms);
      },
    }),
    control,
    ready: readyPromise,
    restored: loaded !== undefined,
    idle: async () => {
      await readyPromise;
      // Jobs already due (first delivery attempts) run now, on every clock, then in-flight attempts finish.
      await Promise.all(core.clocks.all().map((each) => each.clock.advance(0)));
      await core.webhooks.idle();
    },
    close: () => {
      closed ??= (async () => {
        await readyPromise.catch(() => {});
        core.faults.close();
        await core.webhooks.close();
        core.clocks.stop();
        await persistence.flush();
        await persistence.close();
      })();
      return closed;
    },
  };
  return { emulator, app };
}
