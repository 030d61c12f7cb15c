import { describe, expect, test } from 'vitest';
import { testEmulator } from '../_testing/test-emulator';
import { SANDBOX_ACTIVE_CONNECTION_ID } from '../domain/sandbox-fixtures';
import { errorResponse } from './_respond';

const PATHS = [
  '/v1/status',
  '/v1/connections',
  `/v1/connections/${SANDBOX_ACTIVE_CONNECTION_ID}/templates`,
  '/v1/connections/%ZZ/templates',
  '/v1/messages',
  '/v1/messages/%00',
  '/v1/sandbox/events',
  '/_emulator/clock/advance',
  '/_emulator/workspaces',
  '/_emulator/applications',
  '/_emulator/applications/x/keys',
  '/_emulator/applications/x/endpoints',
  '/_emulator/applications/x/connections',
  '/_emulator/endpoints/x',
  '/_emulator/endpoints/x/rotate-secret',
  '/_emulator/deliveries?endpoint_id=%FF',
  '/_emulator/connections/x/inbound',
  '/_emulator/messages?limit=-5&cursor=%%%',
  '/_emulator/workspaces/x/clock',
  '/_emulator/workspaces/a7e1c0de-0000-4000-8000-000000000001/clock/advance',
  '/_emulator/workspaces/a7e1c0de-0000-4000-8000-000000000001/reset',
  '/_emulator/faults',
  '/_emulator/faults/x',
  '/_emulator/magic-numbers',
  '/v2/anything',
  '/..%2F..%2Fetc/passwd',
];

const BODIES = [
  '',
  'null',
  '[]',
  '"text"',
  '12',
  '{',
  '{"__proto__":{"polluted":true}}',
  '{"type":{"nested":[1,2,{"deep":null}]}}',
  '{"connection_id":null,"to":["+33"],"type":"text","text":{"a":1}}',
  '{"url":"http://[::1","events":"all","ms":1e400,"name":"' + 'n'.repeat(5000) + '"}',
  '{"template":{"name":1,"language":[],"variables":{"length":2}}}',
  '\u0000\uffff',
];

describe('no input produces a 5xx', () => {
  test('every method × path × malformed body answers a JSON 2xx/4xx with a request id', async () => {
    const { emulator } = testEmulator();
    const failures: string[] = [];
    for (const method of ['GET', 'POST', 'PATCH', 'DELETE', 'PUT']) {
      for (const path of PATHS) {
        for (const body of method === 'GET' ? [undefined] : BODIES) {
          const response = await emulator.fetch(
            new Request(`http://127.0.0.1:4010${path}`, {
              method,
              headers: {
                authorization: `Bearer ${emulator.sandboxKey}`,
                'content-type': 'application/json',
                'idempotency-key': 'fuzz',
              },
              ...(body === undefined ? {} : { body }),
            }),
          );
          const text = await response.text();
          if (response.status >= 500) failures.push(`${method} ${path} ${body}: ${response.status} ${text}`);
          expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
          if (response.status >= 400) {
            const error = JSON.parse(text).error;
            expect(error.code).toEqual(expect.any(String));
            // spec 7: details is always there, an object even when it has nothing to add.
            expect(error.details).toEqual(expect.any(Object));
            expect(Array.isArray(error.details)).toBe(false);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('an unexpected exception becomes 500 internal_error without its internals', async () => {
    const errors = console.error;
    console.error = () => {};
    try {
      const response = errorResponse(new Error('secret detail at /home/user/db'), 'req_0');
      expect(response.status).toBe(500);
      const body = await response.json();
      expect(body.error.code).toBe('internal_error');
      expect(JSON.stringify(body)).not.toContain('secret detail');
    } finally {
      console.error = errors;
    }
  });
});
