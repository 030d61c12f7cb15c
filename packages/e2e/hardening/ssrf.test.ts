import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { createEmulator, DEFAULT_APPLICATION_ID, type Emulator, type WebhookNetwork } from '@parley/emulator';
import { listAll } from '@parley/emulator/control';
import { TEST_CA, TEST_TLS_KEY } from '@parley/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { recordFigure } from './_figures';
import { ACCEPTED, REFUSED, zoneResolver } from './_ssrf-table';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Every socket a delivery opens goes to 127.0.0.1; `dialled` keeps the address it stood in for. */
function loopbackOnly(port: number, dialled: string[]): NonNullable<WebhookNetwork['dial']> {
  return (address) => {
    dialled.push(address);
    return { address: '127.0.0.1', port };
  };
}

function strictEmulator(webhookNetwork: WebhookNetwork): Emulator {
  const emulator = createEmulator({
    clock: 'frozen',
    urlPolicy: 'strict',
    rateLimits: false,
    webhookNetwork,
  });
  cleanups.push(() => emulator.close());
  return emulator;
}

async function control(emulator: Emulator, path: string, body: unknown = {}) {
  const response = await emulator.fetch(
    new Request(`http://127.0.0.1:4010/_emulator/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  // biome-ignore lint/suspicious/noExplicitAny: the control API's JSON answers
  return { status: response.status, body: (await response.json()) as any };
}

const createEndpoint = (emulator: Emulator, url: string) =>
  control(emulator, `applications/${DEFAULT_APPLICATION_ID}/endpoints`, {
    url,
    events: ['message.received'],
  });

/** An https stand-in for the public address, on 127.0.0.1, counting connections and what it got. */
async function tlsStandIn() {
  const requests: { host: string | undefined; servername: string | false | null | undefined }[] = [];
  let connections = 0;
  const server = createServer({ cert: TEST_CA, key: TEST_TLS_KEY }, (request, response) => {
    request.resume();
    request.on('end', () => {
      requests.push({ host: request.headers.host, servername: (request.socket as TLSSocket).servername });
      response.writeHead(204).end();
    });
  });
  server.on('secureConnection', () => void connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { port: (server.address() as AddressInfo).port, requests, connections: () => connections };
}

describe('SSRF: the strict URL policy through the control API', () => {
  test(`refuses ${REFUSED.length} local, private and reserved URLs in every notation with 400 invalid_url`, async () => {
    const dialled: string[] = [];
    const emulator = strictEmulator({ resolveHost: zoneResolver, dial: loopbackOnly(9, dialled) });
    const started = performance.now();
    const slipped: string[] = [];
    for (const [url, reason] of REFUSED) {
      const answer = await createEndpoint(emulator, url);
      const error = answer.body?.error;
      if (answer.status !== 400 || error?.code !== 'invalid_url' || !reason.test(error?.details?.reason)) {
        slipped.push(`${url} → ${answer.status} ${JSON.stringify(error ?? answer.body)}`);
      }
    }
    const elapsedMs = performance.now() - started;
    expect(slipped).toEqual([]);
    expect((await emulator.control.listEndpoints()).data).toEqual([]);
    expect(dialled).toEqual([]);

    recordFigure({
      test: 'ssrf: strict URL table',
      load: `${REFUSED.length} hostile endpoint URLs through POST /_emulator/applications/{id}/endpoints`,
      proved:
        'every notation of loopback, private, link-local, CGNAT, multicast, reserved and unspecified addresses, ' +
        'localhost spellings, IDN and percent-encoded hosts, names resolving to such addresses, credentials, ' +
        'other ports and schemes is refused with 400 invalid_url; no endpoint stored, no socket opened',
      figures: `${REFUSED.length}/${REFUSED.length} refused with the expected reason, 0 stored, 0 sockets; ${elapsedMs.toFixed(0)} ms`,
    });
  });

  test(`accepts ${ACCEPTED.length} public https URLs on 443`, async () => {
    const emulator = strictEmulator({ resolveHost: zoneResolver, dial: loopbackOnly(9, []) });
    for (const url of ACCEPTED) {
      const answer = await createEndpoint(emulator, url);
      expect(answer, url).toMatchObject({ status: 201, body: { url: new URL(url).href } });
      expect(answer.body.secret).toMatch(/^whsec_/);
    }
    expect((await emulator.control.listEndpoints()).data).toHaveLength(ACCEPTED.length);
  });

  test('a DNS answer alternating public and loopback never gets a loopback connection in 200 attempts', async () => {
    const standIn = await tlsStandIn();
    const dialled: string[] = [];
    let lookups = 0;
    const emulator = strictEmulator({
      // Rebinding: every other answer for the same name is loopback.
      resolveHost: async () => (lookups++ % 2 === 0 ? ['93.184.216.34'] : ['127.0.0.1']),
      dial: loopbackOnly(standIn.port, dialled),
      ca: TEST_CA,
    });
    const created = await createEndpoint(emulator, 'https://hooks.parley.test/webhooks');
    expect(created.status).toBe(201);
    const attempts = 200;
    const started = performance.now();
    for (let index = 0; index < attempts; index++) {
      expect((await control(emulator, `endpoints/${created.body.id}/test`)).status).toBe(202);
    }
    await emulator.idle();
    const elapsedMs = performance.now() - started;

    const deliveries = await listAll((page) =>
      emulator.control.listDeliveries({ endpointId: created.body.id, ...page }),
    );
    const firstAttempts = deliveries.map((delivery) => delivery.attempts[0]);
    const delivered = deliveries.filter((delivery) => delivery.status === 'delivered').length;
    const refused = firstAttempts.filter((attempt) =>
      /resolves to 127\.0\.0\.1, a loopback/.test(attempt?.error ?? ''),
    );
    expect(deliveries).toHaveLength(attempts);
    expect(lookups).toBe(attempts + 1); // once at creation, then exactly once per attempt
    expect(dialled.filter((address) => address !== '93.184.216.34')).toEqual([]);
    expect(standIn.connections()).toBe(dialled.length);
    expect(delivered).toBe(attempts / 2);
    expect(refused).toHaveLength(attempts / 2);
    expect(standIn.requests).toHaveLength(attempts / 2);
    expect(standIn.requests.every((request) => request.host === 'hooks.parley.test')).toBe(true);
    expect(standIn.requests.every((request) => request.servername === 'hooks.parley.test')).toBe(true);

    recordFigure({
      test: 'ssrf: DNS rebinding',
      load: `${attempts} delivery attempts, strict policy, a resolver alternating 93.184.216.34 and 127.0.0.1`,
      proved:
        'each attempt resolves once and connects only to the address it checked (Host and SNI stay the URL name): ' +
        'loopback answers are refused before any socket, public ones reach the pinned address',
      figures:
        `0 loopback connections; ${lookups - 1} lookups for ${attempts} attempts; ${delivered} delivered, ` +
        `${refused.length} refused; ${standIn.connections()} TLS connections for ${standIn.requests.length} requests; ` +
        `${elapsedMs.toFixed(0)} ms`,
    });
  });
});
