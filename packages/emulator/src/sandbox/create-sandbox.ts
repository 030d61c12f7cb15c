import {
  Parley,
  type ParleyOptions,
  type SandboxEventOverrides,
  type SandboxEventResult,
  type SandboxEventType,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventType,
} from '@parley/sdk';
import type { Clock } from '../clock/clock-types';
import type { Emulator } from '../create-emulator';
import { type Duration, durationMs } from './duration';
import { listenSandboxReceiver, type SandboxReceiver } from './sandbox-receiver';

/** Options of the sandbox's SDK clients: everything but where they go and with which key. */
export type SandboxClientOptions = Omit<ParleyOptions, 'apiKey' | 'baseUrl' | 'fetch'>;

/** Options of {@link createSandbox}. */
export interface SandboxOptions {
  /** Name of the workspace and its application, as the console shows them (default `sandbox`). */
  name?: string;
  /** Where the sandbox's frozen clock starts (default: the emulator's global time). */
  now?: number | string | Date;
  /** Options of {@link Sandbox.parley}, e.g. `{ maxRetries: 0 }`. */
  client?: SandboxClientOptions;
  /** The application's environment (default `sandbox`); `live` is a simulated live one (its key accepts the agreement). */
  environment?: 'sandbox' | 'live';
}

/** Options of {@link Sandbox.receiver}. */
export interface SandboxReceiverOptions {
  /** Event types the endpoint subscribes to (default: all). */
  events?: readonly WebhookEventType[];
  /** The status a verified delivery is answered with (default 204); a 5xx makes the emulator retry. */
  respond?: (event: WebhookEvent) => number;
}

/**
 * One test's own corner of an emulator: a workspace with a frozen clock of its own, a sandbox
 * application in it, a key, and an SDK client using that key. Nothing another sandbox does (its
 * messages, clock, deliveries, rate-limit windows) reaches it. The methods are bound: destructure them.
 * At run time it is also async-disposable (`Symbol.asyncDispose`), but the type does not say so:
 * naming `AsyncDisposable` would make every user's `tsc` need the `esnext.disposable` lib.
 */
export interface Sandbox {
  readonly emulator: Emulator;
  readonly workspaceId: string;
  readonly applicationId: string;
  readonly keyId: string;
  /** The application's sandbox key (`prl_sandbox_…`). */
  readonly apiKey: string;
  /** An SDK client with the sandbox's key, calling the emulator in process. */
  readonly parley: Parley;
  /** The sandbox's own frozen clock. */
  readonly clock: Clock;
  /** Another client with the sandbox's key and other options (`{ maxRetries: 0 }`). */
  client(options?: SandboxClientOptions): Parley;
  /** Moves the sandbox's clock (`'5s'`, `'10m'`, or ms); its jobs that fall due run first, in time order. */
  advance(duration: Duration): Promise<void>;
  /** A real 127.0.0.1 endpoint registered for the application, whose deliveries a test awaits. */
  receiver(options?: SandboxReceiverOptions): Promise<SandboxReceiver>;
  /** A synthetic event (`POST /v1/sandbox/events`), queued to the application's endpoints. */
  trigger(type: SandboxEventType, overrides?: SandboxEventOverrides): Promise<SandboxEventResult>;
  /** Clears the workspace's traffic (pending deliveries and retries stop) and closes its receivers. */
  dispose(): Promise<void>;
}

// In process the host is never dialled: the client's requests go to `emulator.fetch`.
const BASE_URL = 'http://127.0.0.1:4010/v1';

/**
 * Creates a {@link Sandbox} in `emulator`: in a test framework without fixtures, one per test
 * (`@parley/emulator/vitest` does this for vitest).
 *
 * @example
 * const emulator = createEmulator({ clock: 'frozen' });
 * beforeEach(async () => { sandbox = await createSandbox(emulator); });
 * afterEach(() => sandbox.dispose());
 */
export async function createSandbox(emulator: Emulator, options: SandboxOptions = {}): Promise<Sandbox> {
  const { control } = emulator;
  const name = (options.name || 'sandbox').slice(0, 200);
  const workspace = await control.createWorkspace({
    name,
    clock: 'frozen',
    ...(options.now === undefined ? {} : { now: new Date(options.now).toISOString() }),
  });
  const application = await control.createApplication({
    name,
    environment: options.environment ?? 'sandbox',
    workspace_id: workspace.id,
  });
  const key = await control.createKey(
    application.id,
    options.environment === 'live' ? { accept_agreement: true } : {},
  );
  const fetch = (input: string | URL | Request, init?: RequestInit) =>
    emulator.fetch(new Request(input, init));
  const client = (clientOptions: SandboxClientOptions = {}) =>
    new Parley({ ...clientOptions, apiKey: key.key, baseUrl: BASE_URL, fetch });
  const parley = client(options.client);
  const clock = emulator.workspaceClock(workspace.id);
  const receivers: { close(): Promise<void> }[] = [];
  let disposed: Promise<void> | undefined;

  const receiver = async (receiverOptions: SandboxReceiverOptions = {}): Promise<SandboxReceiver> => {
    const listening = await listenSandboxReceiver({
      settle: () => emulator.idle(),
      explainMissing: (endpointId, type) => explainMissing(emulator, endpointId, type),
      respond: receiverOptions.respond,
    });
    receivers.push(listening);
    const endpoint = await control.createEndpoint(application.id, {
      url: listening.url,
      events: [...(receiverOptions.events ?? WEBHOOK_EVENT_TYPES)],
    });
    return listening.attach(endpoint);
  };
  const dispose = () => {
    disposed ??= (async () => {
      // The reset first: an attempt in flight is then not recorded, and no retry is left behind.
      await control.resetWorkspace(workspace.id);
      await Promise.all(receivers.map((listening) => listening.close()));
    })();
    return disposed;
  };
  return {
    emulator,
    workspaceId: workspace.id,
    applicationId: application.id,
    keyId: key.id,
    apiKey: key.key,
    parley,
    clock,
    client,
    advance: async (duration) => clock.advance(durationMs(duration)),
    receiver,
    trigger: (type, overrides) =>
      parley.sandbox.events.create(overrides === undefined ? { type } : { type, overrides }),
    dispose,
    // Runtime support for `await using` where the runtime has it (see the interface's comment).
    ...(typeof Symbol.asyncDispose === 'symbol' ? { [Symbol.asyncDispose]: dispose } : {}),
  };
}

async function explainMissing(
  emulator: Emulator,
  endpointId: string,
  type: WebhookEventType | undefined,
): Promise<string> {
  const pending = (await emulator.control.listDeliveries({ endpointId, limit: 100 })).data.filter(
    (each) => each.status === 'pending',
  );
  const what = type ? `${type} event` : 'event';
  const times = pending.map((each) => each.next_attempt_at).sort();
  const waiting =
    pending.length === 0
      ? 'no delivery to it is pending'
      : `${pending.length} pending deliver${pending.length === 1 ? 'y leaves' : 'ies leave'} at ${times.join(', ')} (the sandbox's time)`;
  return `No ${what} has reached this receiver and none is on its way: ${waiting}. Deliveries leave when the sandbox's clock reaches them: advance it first (await advance('5s')).`;
}
