import { createControlClient, type EmulatorControl } from '@parley/emulator/control';
import { Parley, type ParleyOptions } from '@parley/sdk';
import { inject } from 'vitest';

/** Every workspace's clock starts here: a worker that moved another's clock would show at once. */
export const START = Date.parse('2026-10-14T09:00:00Z');
/** The active sandbox connection (the same in every sandbox application). */
export const ACTIVE_CONNECTION = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';

/** One worker's own corner of the shared emulator. */
export interface Workspace {
  id: string;
  applicationId: string;
  keyId: string;
  /** An SDK client with this workspace's key: its calls see this workspace's time only. */
  client(options?: Omit<ParleyOptions, 'apiKey' | 'baseUrl'>): Parley;
  /** Moves this workspace's clock; its jobs that fall due (status steps, deliveries) run first. */
  advance(ms: number): Promise<void>;
  /** This workspace's time, in ms. */
  now(): Promise<number>;
  /** The ids of the messages the emulator holds for this workspace's application, newest first. */
  messageIds(): Promise<string[]>;
  /** The shared emulator's control API (typed): the same methods as `emulator.control` in process. */
  control: EmulatorControl;
}

/**
 * Creates a workspace with its own frozen clock at {@link START}, a sandbox application in it and a
 * key: call it once per test file (each file runs in its own worker).
 */
export async function takeWorkspace(name: string): Promise<Workspace> {
  const { baseUrl } = inject('parleyEmulator');
  const control = createControlClient({ baseUrl });
  const workspace = await control.createWorkspace({
    name,
    clock: 'frozen',
    now: new Date(START).toISOString(),
  });
  const application = await control.createApplication({
    name: `${name} (sandbox)`,
    environment: 'sandbox',
    workspace_id: workspace.id,
  });
  const key = await control.createKey(application.id);
  return {
    id: workspace.id,
    applicationId: application.id,
    keyId: key.id,
    client: (options = {}) => new Parley({ ...options, apiKey: key.key, baseUrl }),
    advance: async (ms) => {
      await control.advanceWorkspaceClock(workspace.id, ms);
    },
    now: async () => Date.parse((await control.getWorkspaceClock(workspace.id)).now),
    messageIds: async () =>
      (await control.listMessages({ applicationId: application.id, limit: 100 })).data.map(
        (message) => message.id,
      ),
    control,
  };
}

/**
 * Checks that this workspace's time is exactly {@link START} + `advanced` ms, as the control API and
 * its own key (`GET /v1/status`) see it: what would break if another worker moved this clock.
 */
export async function expectOwnTime(workspace: Workspace, advanced: number): Promise<void> {
  const { expect } = await import('vitest');
  expect(await workspace.now()).toBe(START + advanced);
  const status = await workspace.client().status.get();
  expect(status.workspace_id).toBe(workspace.id);
  expect(Date.parse(status.timestamp)).toBe(START + advanced - ((START + advanced) % 1000));
}
