import { describe, expect, test } from 'vitest';
import { testEmulator } from '../_testing/test-emulator';

describe('the console cannot be framed', () => {
  test('GET / forbids framing with both headers', async () => {
    const { call } = testEmulator();
    const page = await call('GET', '/', { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy.split('; ')).toContain("frame-ancestors 'none'");
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'/);
  });
});

describe('the control API refuses other sites', () => {
  test.each([
    [{ origin: 'https://evil.example' }],
    [{ origin: 'http://127.0.0.1:4011' }],
    [{ origin: 'null' }],
    [{ 'sec-fetch-site': 'cross-site' }],
    [{ origin: 'http://127.0.0.1:4010', 'sec-fetch-site': 'cross-site' }],
  ])('%o: 403 origin_not_allowed and nothing changes', async (headers) => {
    const { call } = testEmulator();
    const before = (await call('GET', '/_emulator/workspaces')).body.data;
    for (const [method, path] of [
      ['POST', '/_emulator/workspaces'],
      ['POST', '/_emulator/reset'],
      ['GET', '/_emulator/applications'],
    ] as const) {
      const answer = await call(
        method,
        path,
        method === 'GET' ? { headers } : { body: { name: 'x' }, headers },
      );
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('origin_not_allowed');
      expect(answer.body.error.request_id).toMatch(/^req_[0-9a-f]{32}$/);
    }
    expect((await call('GET', '/_emulator/workspaces')).body.data).toEqual(before);
  });

  test.each([
    [{}],
    [{ origin: 'http://127.0.0.1:4010' }],
    [{ origin: 'http://127.0.0.1:4010', 'sec-fetch-site': 'same-origin' }],
    [{ 'sec-fetch-site': 'none' }],
  ])('%o: its own console and non-browser clients pass', async (headers) => {
    const { call } = testEmulator();
    const answer = await call('POST', '/_emulator/workspaces', { body: { name: 'mine' }, headers });
    expect(answer.status).toBe(201);
    expect(answer.body.name).toBe('mine');
  });
});
