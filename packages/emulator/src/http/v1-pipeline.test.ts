import { describe, expect, test } from 'vitest';
import { T0 } from '../_testing/test-emulator';
import { DEFAULT_KEY_ID, DEFAULT_SANDBOX_KEY } from '../core/defaults';
import { assembleEmulator } from '../create-emulator';

// The load-test call is answered by the h3 app without a single await (issue 23): h3 then writes
// it in the same turn. These tests hold that, and what still has to wait (a body, a fault).
function app() {
  const { emulator, app } = assembleEmulator({ clock: 'frozen', now: T0, rateLimits: false });
  return { emulator, fetch: (path: string, init: RequestInit = {}) => app.fetch(request(path, init)) };
}

function request(path: string, { headers, ...init }: RequestInit = {}) {
  return new Request(`http://127.0.0.1:4010${path}`, {
    ...init,
    headers: { authorization: `Bearer ${DEFAULT_SANDBOX_KEY}`, ...(headers as Record<string, string>) },
  });
}

const isPromise = (value: unknown) => typeof (value as { then?: unknown })?.then === 'function';

describe('the /v1 pipeline', () => {
  test('a call without a body is answered synchronously, also a refusal, also with faults elsewhere', async () => {
    const { emulator, fetch } = app();
    await emulator.ready;
    const status = fetch('/v1/status');
    expect(isPromise(status)).toBe(false);
    expect((status as Response).status).toBe(200);
    const refused = fetch('/v1/status', { headers: { authorization: 'Bearer prl_sandbox_unknown' } });
    expect(isPromise(refused)).toBe(false);
    expect((refused as Response).status).toBe(401);
    await emulator.control.createFault({
      path: '/v1/connections',
      fault: { status: 503, code: 'unavailable' },
    });
    await emulator.control.createFault({ key_id: DEFAULT_KEY_ID, method: 'POST', fault: { drop: true } });
    const untouched = fetch('/v1/status');
    expect(isPromise(untouched)).toBe(false);
    expect((untouched as Response).status).toBe(200);
    await emulator.close();
  });

  test('a matching fault, a send and its refusals still answer in order once awaited', async () => {
    const { emulator, fetch } = app();
    await emulator.ready;
    const fault = await emulator.control.createFault({
      path: '/v1/status',
      fault: { status: 503, code: 'unavailable' },
    });
    const faulted = fetch('/v1/status');
    expect(isPromise(faulted)).toBe(true);
    expect((await faulted).status).toBe(503);
    expect((fetch('/v1/status') as Response).status).toBe(200);
    const send = fetch('/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k1' },
      body: '{',
    });
    expect(isPromise(send)).toBe(true);
    expect((await send).status).toBe(400);
    const activity = await (await fetch('/_emulator/activity')).json();
    const requests = activity.data
      .filter((item: { kind: string }) => item.kind === 'request')
      .map((item: { method: string; path: string; status: number; fault?: string; key_prefix: string }) => [
        item.method,
        item.path,
        item.status,
        item.fault ?? null,
        item.key_prefix,
      ]);
    expect(requests).toEqual([
      ['POST', '/v1/messages', 400, null, 'prl_sandbox_parl'],
      ['GET', '/v1/status', 200, null, 'prl_sandbox_parl'],
      ['GET', '/v1/status', 503, fault.id, 'prl_sandbox_parl'],
    ]);
    await emulator.close();
  });
});
