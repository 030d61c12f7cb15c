import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createEmulator } from './index';
import { createEmulatorHandlers } from './msw';

const emulator = createEmulator({ clock: 'frozen' });
const server = setupServer(...createEmulatorHandlers(emulator, { baseUrl: 'https://parley.test' }));
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(async () => {
  server.close();
  await emulator.close();
});

test('msw handlers answer every request under the base URL from the in-process emulator', async () => {
  const headers = { authorization: `Bearer ${emulator.sandboxKey}` };
  const status = await fetch('https://parley.test/v1/status', { headers });
  expect(status.status).toBe(200);
  expect((await status.json()).environment).toBe('sandbox');
  const sent = await fetch('https://parley.test/v1/messages', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': 'msw-1' },
    body: JSON.stringify({
      connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
      to: '+33612345678',
      type: 'template',
      template: { name: 'hello_world', language: 'en', variables: [] },
    }),
  });
  expect(sent.status).toBe(202);
  const { id } = await sent.json();
  await emulator.clock.advance(5_000);
  const read = await fetch(`https://parley.test/v1/messages/${id}`, { headers });
  expect((await read.json()).status).toBe('delivered');
  const missing = await fetch('https://parley.test/v1/nope', { headers });
  expect(missing.status).toBe(404);
});

test('a base URL given with /v1 works the same', () => {
  const [handler] = createEmulatorHandlers(emulator, { baseUrl: 'http://127.0.0.1:4010/v1/' });
  expect(handler!.info.path).toBe('http://127.0.0.1:4010/*');
});

test('an injected drop reaches the caller as the network error fetch rejects with', async () => {
  await emulator.control.createFault({ path: '/v1/status', fault: { drop: true } });
  const headers = { authorization: `Bearer ${emulator.sandboxKey}` };
  await expect(fetch('https://parley.test/v1/status', { headers })).rejects.toThrow(TypeError);
  expect((await fetch('https://parley.test/v1/status', { headers })).status).toBe(200);
});
