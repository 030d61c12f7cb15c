import { SCOPES } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { createAppWithKey, templateSend, testEmulator } from '../_testing/test-emulator';
import { SANDBOX_ACTIVE_CONNECTION_ID } from '../domain/sandbox-fixtures';

const REQUEST_ID = /^req_[0-9a-f]{32}$/;

describe('authentication', () => {
  test('no Authorization header: 401 missing_api_key in the spec error format', async () => {
    const { call } = testEmulator();
    const answer = await call('GET', '/v1/status', { key: null });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('missing_api_key');
    expect(answer.body.error.request_id).toMatch(REQUEST_ID);
    expect(answer.headers.get('x-request-id')).toBe(answer.body.error.request_id);
    expect(answer.headers.get('ratelimit-limit')).toBeNull();
  });

  test('a non-Bearer scheme counts as missing', async () => {
    const { call, emulator } = testEmulator();
    const answer = await call('GET', '/v1/status', {
      key: null,
      headers: { authorization: `Basic ${emulator.sandboxKey}` },
    });
    expect(answer.body.error.code).toBe('missing_api_key');
  });

  test('unknown or malformed key: 401 invalid_api_key', async () => {
    const { call } = testEmulator();
    for (const key of ['prl_sandbox_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'nonsense']) {
      const answer = await call('GET', '/v1/status', { key });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('invalid_api_key');
    }
  });

  test('the ready sandbox key answers GET /v1/status with every scope as capabilities', async () => {
    const { call } = testEmulator();
    const answer = await call('GET', '/v1/status');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'authenticated',
      application_id: expect.any(String),
      workspace_id: expect.any(String),
      environment: 'sandbox',
      scopes: [...SCOPES],
      timestamp: '2026-10-14T09:30:15Z',
      capabilities: [...SCOPES],
      sandbox_external_calls: false,
    });
  });

  test('scopes the API does not implement are listed but are not capabilities', async () => {
    const { call, emulator } = testEmulator();
    const { key } = await createAppWithKey(emulator, 'sandbox', {
      scopes: ['system.status.read', 'billing.read'],
    });
    const answer = await call('GET', '/v1/status', { key });
    expect(answer.body.scopes).toEqual(['system.status.read', 'billing.read']);
    expect(answer.body.capabilities).toEqual(['system.status.read']);
  });
});

describe('scopes (DESIGN §2)', () => {
  const routes: [string, string, string, unknown?][] = [
    ['system.status.read', 'GET', '/v1/status'],
    ['connections.read', 'GET', '/v1/connections'],
    ['templates.read', 'GET', `/v1/connections/${SANDBOX_ACTIVE_CONNECTION_ID}/templates`],
    ['messages.send', 'POST', '/v1/messages', templateSend()],
    ['messages.read', 'GET', '/v1/messages/0b7d7c1e-5f0e-4f5b-a1c2-9e8d7c6b5a49'],
    ['sandbox.events.create', 'POST', '/v1/sandbox/events', { type: 'webhook.test' }],
  ];

  test.each(routes)(
    '%s guards %s %s: 403 insufficient_scope with details.required_scope',
    async (scope, method, path, body) => {
      const { call, emulator } = testEmulator();
      const others = SCOPES.filter((candidate) => candidate !== scope);
      const { key } = await createAppWithKey(emulator, 'sandbox', { scopes: others });
      const answer = await call(method, path, {
        key,
        ...(body ? { body } : {}),
        idempotencyKey: 'scope-test',
      });
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('insufficient_scope');
      expect(answer.body.error.details).toEqual({ required_scope: scope });
      const allowed = await createAppWithKey(emulator, 'sandbox', { scopes: [scope] });
      const permitted = await call(method, path, {
        key: allowed.key,
        ...(body ? { body } : {}),
        idempotencyKey: 'scope-ok',
      });
      expect(permitted.status).not.toBe(403);
    },
  );
});

describe('request ids and unknown paths', () => {
  test('every answer has a fresh X-Request-Id, including 404 for an unknown path', async () => {
    const { call } = testEmulator();
    const first = await call('GET', '/v1/nothing-here');
    const second = await call('DELETE', '/v1/status');
    expect(first.status).toBe(404);
    expect(first.body.error.code).toBe('not_found');
    expect(second.status).toBe(404);
    expect(first.headers.get('x-request-id')).toMatch(REQUEST_ID);
    expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'));
  });
});
