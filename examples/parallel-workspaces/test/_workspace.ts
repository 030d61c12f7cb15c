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
  /** A call to the control API. */
  // biome-ignore lint/suspicious/noExplicitAny: control answers are read as JSON
  control(method: string, path: string, body?: unknown): Promise<any>;
}

/**
 * Creates a workspace with its own frozen clock at {@link START}, a sandbox application in it and a
 * key: call it once per test file (each file runs in its own worker).
 */
export async function takeWorkspace(name: string): Promise<Workspace> {
  const { baseUrl, controlUrl } = inject('parleyEmulator');
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${controlUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : response.json();
  };
  const workspace = await control('POST', '/workspaces', {
    name,
    clock: 'frozen',
    now: new Date(START).toISOString(),
  });
  const application = await control('POST', '/applications', {
    name: `${name} (sandbox)`,
    environment: 'sandbox',
    workspace_id: workspace.id,
  });
  const key = await control('POST', `/applications/${application.id}/keys`, {});
  return {
    id: workspace.id,
    applicationId: application.id,
    keyId: key.id,
    client: (options = {}) => new Parley({ ...options, apiKey: key.key, baseUrl }),
    advance: async (ms) => {
      await control('POST', `/workspaces/${workspace.id}/clock/advance`, { ms });
    },
    now: async () => Date.parse((await control('GET', `/workspaces/${workspace.id}/clock`)).now),
    messageIds: async () =>
      (await control('GET', `/messages?application_id=${application.id}&limit=100`)).data.map(
        (message: { id: string }) => message.id,
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
