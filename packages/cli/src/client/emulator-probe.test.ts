import { describe, expect, it } from 'vitest';
import { testContext } from '../_test/test-context';
import { openApiSession } from './api-session';
import { probeEmulator } from './emulator-probe';

const KEY = 'prl_sandbox_parleyEmulatorDefaultSandboxKey1';

/** A session whose every request goes to `answer`; the requests are kept. */
async function sessionAnswering(answer: (request: Request) => Response) {
  const requests: string[] = [];
  const context = testContext({
    env: { PARLEY_API_KEY: KEY, PARLEY_BASE_URL: 'http://127.0.0.1:4010/v1' },
    fetch: async (request) => {
      requests.push(`${request.method} ${new URL(request.url).pathname}`);
      return answer(request);
    },
  });
  return { api: await openApiSession({}, context), context, requests };
}

describe('probeEmulator: is the base URL an emulator?', () => {
  it('a server without the route (404) is no emulator, after one request', async () => {
    const { api, context, requests } = await sessionAnswering(
      () => new Response('Not Found', { status: 404 }),
    );
    expect(await probeEmulator(api, context)).toBeUndefined();
    expect(requests).toEqual(['GET /_emulator/clock']);
  });

  it('an answer that is not a clock is no emulator: wrong mode, bad time, not JSON', async () => {
    for (const body of [
      '{"now":"2026-10-14T09:30:15.000Z","mode":"\\u001b[31mfrozen"}',
      '{"now":"yesterday","mode":"frozen"}',
      '<html>frozen</html>',
    ]) {
      const { api, context } = await sessionAnswering(() => new Response(body));
      expect(await probeEmulator(api, context)).toBeUndefined();
    }
  });

  it('an endless answer is read up to 64 KiB, then given up: no emulator', async () => {
    let pulled = 0;
    const { api, context } = await sessionAnswering(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(stream) {
              pulled += 16 * 1024;
              stream.enqueue(new Uint8Array(16 * 1024).fill(0x20));
            },
          }),
        ),
    );
    expect(await probeEmulator(api, context)).toBeUndefined();
    // The stream reads ahead a little past the bound, never far.
    expect(pulled).toBeLessThanOrEqual(256 * 1024);
  });
});
