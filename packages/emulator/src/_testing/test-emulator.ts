import { afterEach } from 'vitest';
import { assembleEmulator, createEmulator, type Emulator, type EmulatorOptions } from '../create-emulator';
import { SANDBOX_ACTIVE_CONNECTION_ID } from '../domain/sandbox-fixtures';
import type { Persistence } from '../store/persistence';

/** 2026-10-14T09:30:15Z: a quarter past a minute, so windows and days are easy to reason about. */
/** The seed application's id, for tests of layers below `core/` that drive a whole emulator. */
export { DEFAULT_APPLICATION_ID } from '../core/defaults';

export const T0 = Date.parse('2026-10-14T09:30:15Z');

/** An answer, read once. */
export interface TestAnswer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  body: any;
}

/** Options of one call. */
export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is. */
  raw?: string;
  /** API key; `null` sends no Authorization header. Default: the sandbox key. */
  key?: string | null;
  headers?: Record<string, string>;
  idempotencyKey?: string;
}

const running: Emulator[] = [];
afterEach(async () => {
  for (const emulator of running.splice(0)) await emulator.close();
});

let sequence = 0;

/**
 * A frozen-clock emulator at {@link T0}, closed after the test, with call helpers. `persistence`
 * replaces the data dir's (a disk that fails on purpose).
 */
export function testEmulator(options: EmulatorOptions = {}, persistence?: Persistence) {
  const settings: EmulatorOptions = { clock: 'frozen', now: T0, ...options };
  const emulator = persistence ? assembleEmulator(settings, persistence).emulator : createEmulator(settings);
  running.push(emulator);
  const call = async (method: string, path: string, options: CallOptions = {}): Promise<TestAnswer> => {
    const headers: Record<string, string> = {};
    const key = options.key === undefined ? emulator.sandboxKey : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    } else if (method === 'POST' || method === 'PATCH') headers['content-type'] = 'application/json';
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    Object.assign(headers, options.headers);
    const response = await emulator.fetch(
      new Request(`http://127.0.0.1:4010${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
      }),
    );
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    return { status: response.status, headers: response.headers, body: parsed };
  };
  /** POST /v1/messages with a fresh idempotency key unless one is given. */
  const send = (body: unknown, options: CallOptions = {}) =>
    call('POST', '/v1/messages', { body, idempotencyKey: `test-${++sequence}`, ...options });
  return { emulator, call, send };
}

/** A valid text send through the active sandbox connection. */
export function textSend(overrides: Record<string, unknown> = {}) {
  return {
    connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
    to: '+33612345678',
    type: 'text',
    text: 'Bonjour',
    ...overrides,
  };
}

/** A valid `order_confirmation` send through the active sandbox connection. */
export function templateSend(overrides: Record<string, unknown> = {}) {
  return {
    connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
    to: '+33612345678',
    type: 'template',
    template: { name: 'order_confirmation', language: 'fr', variables: ['Ana', 'A-1042'] },
    ...overrides,
  };
}

/** Creates an application and a key with the given scopes through the control API. */
export async function createAppWithKey(
  emulator: Emulator,
  environment: 'live' | 'sandbox',
  options: { scopes?: string[]; workspaceId?: string } = {},
) {
  const app = await emulator.control.createApplication({
    name: `${environment} app`,
    environment,
    ...(options.workspaceId ? { workspace_id: options.workspaceId } : {}),
  });
  const key = await emulator.control.createKey(app.id, {
    ...(options.scopes ? { scopes: options.scopes } : {}),
    accept_agreement: true,
  });
  return { app, key: key.key };
}
