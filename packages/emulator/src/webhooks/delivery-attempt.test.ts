import { TEST_CA } from '@parley/test-utils';
import { describe, expect, it } from 'vitest';
import { receiver } from '../_testing/webhook-harness';
import { type DeliveryNetwork, sendDeliveryAttempt } from './delivery-attempt';

const attempt = (url: string, addresses: readonly string[] | null, network?: DeliveryNetwork) =>
  sendDeliveryAttempt({
    url,
    addresses,
    network,
    body: '{"id":"evt_1"}',
    headers: { 'content-type': 'application/json' },
    timeoutMs: 5_000,
    signal: new AbortController().signal,
  });

// Names under .invalid and .test never resolve (RFC 6761): a request that arrives can only have
// come through the pinned address, and nothing here can leave the machine.
describe('sendDeliveryAttempt: connects only to the checked addresses', () => {
  it('dials the pinned address without resolving the name, and keeps the name as Host', async () => {
    const hook = await receiver();
    const outcome = await attempt(`http://hooks.invalid:${hook.port}/hooks`, ['127.0.0.1']);
    expect(outcome).toMatchObject({ statusCode: 200, error: null });
    expect(hook.requests).toHaveLength(1);
    expect(hook.requests[0]!.headers.host).toBe(`hooks.invalid:${hook.port}`);
  });

  it('keeps the URL name for TLS: SNI, and the certificate checked against it', async () => {
    const hook = await receiver(undefined, { tls: true });
    const network = { ca: TEST_CA };
    const outcome = await attempt(`https://hooks.parley.test:${hook.port}/hooks`, ['127.0.0.1'], network);
    expect(outcome).toMatchObject({ statusCode: 200, error: null });
    expect(hook.requests[0]).toMatchObject({
      servername: 'hooks.parley.test',
      headers: { host: `hooks.parley.test:${hook.port}` },
    });

    const wrongName = await attempt(`https://hooks.other.invalid:${hook.port}/`, ['127.0.0.1'], network);
    expect(wrongName).toMatchObject({ statusCode: null, error: expect.stringContaining('ALTNAME') });
    const untrusted = await attempt(`https://hooks.parley.test:${hook.port}/`, ['127.0.0.1']);
    expect(untrusted).toMatchObject({ statusCode: null, error: expect.stringContaining('SELF_SIGNED') });
    expect(hook.requests).toHaveLength(1);
  });

  it('reuses a keep-alive socket per origin and address set; another address set gets its own', async () => {
    const hook = await receiver();
    const url = `http://reuse.invalid:${hook.port}/hooks`;
    for (let index = 0; index < 10; index++) {
      expect((await attempt(url, ['127.0.0.1'])).error).toBeNull();
    }
    // undici may open a second socket while the first is being released; never one per attempt.
    const reused = hook.connections();
    expect(reused).toBeLessThanOrEqual(2);
    expect((await attempt(url, ['127.0.0.1', '::1'])).error).toBeNull();
    expect(hook.connections()).toBe(reused + 1);
    expect(hook.requests).toHaveLength(11);
  });

  it('dials a local stand-in through the test seam, with Host and SNI still the URL name', async () => {
    const hook = await receiver(undefined, { tls: true });
    const dialled: string[] = [];
    const network: DeliveryNetwork = {
      ca: TEST_CA,
      dial: (address, port) => {
        dialled.push(`${address} ${port}`);
        return { address: '127.0.0.1', port: hook.port };
      },
    };
    const outcome = await attempt('https://hooks.parley.test/hooks', ['93.184.216.34'], network);
    expect(outcome).toMatchObject({ statusCode: 200, error: null });
    expect(dialled).toEqual(['93.184.216.34 443']);
    expect(hook.requests[0]).toMatchObject({
      servername: 'hooks.parley.test',
      headers: { host: 'hooks.parley.test' },
    });
  });

  it('says which socket error ended an attempt', async () => {
    const hook = await receiver();
    await hook.close();
    const outcome = await attempt(`http://closed.invalid:${hook.port}/`, ['127.0.0.1']);
    expect(outcome).toMatchObject({
      statusCode: null,
      error: expect.stringMatching(/^no answer: ECONNREFUSED/),
    });
  });
});
