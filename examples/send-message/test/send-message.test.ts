import { createEmulator } from '@parley/emulator';
import { Parley } from '@parley/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../src/send-message';

const BASE_URL = 'http://127.0.0.1:4010/v1';
const emulators: { close(): Promise<void> }[] = [];

/** A client talking to an in-memory emulator whose frozen clock moves 1 s at every status poll. */
function clientAgainstEmulator(apiKey?: string) {
  const emulator = createEmulator({ clock: 'frozen' });
  emulators.push(emulator);
  const client = new Parley({
    apiKey: apiKey ?? emulator.sandboxKey,
    baseUrl: BASE_URL,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      // Stands in for waiting: each poll of the message happens one emulator second later.
      if (request.method === 'GET' && new URL(request.url).pathname.startsWith('/v1/messages/')) {
        await emulator.clock.advance(1_000);
      }
      return emulator.fetch(request);
    },
  });
  return { emulator, client };
}

afterEach(async () => {
  await Promise.all(emulators.splice(0).map((emulator) => emulator.close()));
});

describe('examples/send-message', () => {
  it('sends the template through the active connection and returns it once delivered', async () => {
    const { client } = clientAgainstEmulator();
    const lines: string[] = [];

    const outcome = await main(client, { pollInterval: 1, log: (line) => lines.push(line) });

    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.message).toMatchObject({
      status: 'delivered',
      type: 'template',
      template: { name: 'order_confirmation', language: 'fr' },
      client_reference: 'order-A-1042',
      to: '+33612345678',
    });
    // The sandbox delivers at 5 s of age, no earlier.
    const age = Date.parse(outcome.message.updated_at) - Date.parse(outcome.message.created_at);
    expect(age).toBe(5_000);
    expect(lines[0]).toMatch(/^sent [0-9a-f-]{36} \(queued\) through .+, request req_[0-9a-f]{32}$/);
    expect(lines[1]).toMatch(/^delivered at /);
  });

  it('reports a failed message with its error code instead of throwing', async () => {
    const { client } = clientAgainstEmulator();

    const outcome = await main(client, { to: '+33600000000', pollInterval: 1, log: () => {} });

    expect(outcome).toMatchObject({
      ok: false,
      reason: 'the message failed: recipient_unreachable',
      message: { status: 'failed', error: { code: 'recipient_unreachable' } },
    });
  });

  it('reports an unknown API key as the API error code', async () => {
    const { client } = clientAgainstEmulator(`prl_sandbox_${'A'.repeat(32)}`);

    const outcome = await main(client, { log: () => {} });

    expect(outcome).toMatchObject({ ok: false, reason: expect.stringMatching(/^invalid_api_key: /) });
  });

  it('reports an API that cannot be reached', async () => {
    const client = new Parley({
      apiKey: `prl_sandbox_${'A'.repeat(32)}`,
      baseUrl: 'http://127.0.0.1:1/v1',
      maxRetries: 0,
    });

    const outcome = await main(client, { log: () => {} });

    expect(outcome).toMatchObject({ ok: false, reason: expect.stringMatching(/^cannot reach the API/) });
  });
});
