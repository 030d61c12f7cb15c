import { afterAll, describe, expect, it } from 'vitest';
import { emulatorContext } from '../../_test/emulator-context';
import { closedPort } from '../../_test/test-context';
import { renderStatus, status } from './index';

describe('parley status', () => {
  const { emulator, context } = emulatorContext();
  afterAll(() => emulator.close());

  it('returns the status of the key with the rate-limit window and request id of the call', async () => {
    const result = await status({}, context());
    expect(result.status).toMatchObject({
      status: 'authenticated',
      environment: 'sandbox',
      sandbox_external_calls: false,
    });
    expect(result.status.capabilities).toContain('messages.send');
    expect(result.rateLimit).toMatchObject({ limit: 60, remaining: 59 });
    expect(result.requestId).toMatch(/^req_[0-9a-f]{32}$/);
    const text = renderStatus(result, context());
    expect(text).toContain(result.status.application_id);
    expect(text).toMatch(/Rate limit\s+59\/60 requests left/);
  });

  it('explains a refused key in one line naming PARLEY_API_KEY and the profile (exit 1)', async () => {
    const failure = await status({ apiKey: 'prl_sandbox_0000000000000000000000000000000A' }, context()).catch(
      (error) => error,
    );
    expect(failure.code).toBe(1);
    expect(failure.message).not.toContain('\n');
    expect(failure.message).toMatch(
      /invalid_api_key.*request req_.*--api-key.*profile "default".*PARLEY_API_KEY/,
    );
    expect(failure.body.error).toMatchObject({
      code: 'invalid_api_key',
      request_id: expect.stringMatching(/^req_/),
    });
  });

  it('says when to retry once the requests bucket is exhausted', async () => {
    const local = emulatorContext();
    for (let call = 0; call < 60; call++) await status({}, local.context());
    const failure = await status({}, local.context()).catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.body.error.code).toBe('rate_limited');
    expect(failure.message).toMatch(/Bucket requests is exhausted: retry in \d+ s/);
    await local.emulator.close();
  });

  it('is a network error (exit 3) naming the base URL and its source when nothing listens', async () => {
    const port = await closedPort();
    const failure = await status(
      { baseUrl: `http://127.0.0.1:${port}/v1` },
      context({ fetch: (request) => fetch(request) }),
    ).catch((error) => error);
    expect(failure.code).toBe(3);
    expect(failure.message).toContain(
      `could not connect to http://127.0.0.1:${port}/v1 (base URL from --base-url): ECONNREFUSED`,
    );
    expect(failure.body.error.code).toBe('network_error');
  });

  it('never shows the key in an error', async () => {
    const key = 'prl_sandbox_SecretSecretSecretSecretSecret12';
    const failure = await status({ apiKey: key }, context()).catch((error) => error);
    expect(JSON.stringify(failure.body) + failure.message).not.toContain(key);
  });
});
