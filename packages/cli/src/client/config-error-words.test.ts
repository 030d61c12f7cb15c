import { describe, expect, it } from 'vitest';
import { testContext } from '../_test/test-context';
import { openApiSession } from './api-session';

describe('a malformed key or base URL, in the CLI words', () => {
  it("names the key by where it came from, never by the SDK's option", async () => {
    const context = testContext({
      env: { PARLEY_API_KEY: 'garbage', PARLEY_BASE_URL: 'http://127.0.0.1:4010/v1' },
    });
    await expect(openApiSession({}, context)).rejects.toMatchObject({
      code: 3,
      message:
        'the API key from PARLEY_API_KEY is not a Parley key: expected prl_sandbox_ or prl_live_ and 32 letters or digits',
      body: { error: { code: 'config_error' } },
    });
    await expect(openApiSession({ apiKey: 'prl_live_short' }, context)).rejects.toMatchObject({
      message:
        'the API key from --api-key is not a Parley key: expected prl_sandbox_ or prl_live_ and 32 letters or digits',
    });
  });
});
