import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { createControlClient } from '@parley/emulator/control';
import { canonicalJson, DailyLimitError, Parley } from '@parley/sdk';
import { verifyWebhook } from '@parley/sdk/webhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The SDK over a real socket against a listening emulator (frozen clock), with real receivers.
let server: EmulatorServer;
const receivers: Server[] = [];

beforeEach(async () => {
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
});

afterEach(async () => {
  await server.close();
  for (const receiver of receivers.splice(0)) await new Promise((resolve) => receiver.close(resolve));
});

interface Received {
  body: string;
  headers: IncomingHttpHeaders;
}

async function receiver(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const http = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ body, headers: request.headers });
      response.writeHead(200).end();
    });
  });
  receivers.push(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/webhooks`, received };
}

const control = () => createControlClient({ baseUrl: server.url });

describe('the SDK against a listening emulator', () => {
  it('a sandbox send moves queued → sent → delivered with the clock, each change a verified, canonical delivery', async () => {
    const { url, received } = await receiver();
    const app = (await control().listApplications()).data[0]!;
    const endpoint = await control().createEndpoint(app.id, {
      url,
      events: ['message.status_updated'],
    });
    const parley = new Parley({ apiKey: server.sandboxKey, baseUrl: server.baseUrl });
    const [connection] = (await parley.connections.list()).data;
    const message = await parley.messages.send({
      connection_id: connection!.id,
      to: '+33612345678',
      type: 'template',
      template: { name: 'order_confirmation', language: 'fr', variables: ['Ana', 'A-1042'] },
    });
    expect(message.status).toBe('queued');
    await control().advanceClock(5_000);
    await server.emulator.idle();
    expect(received).toHaveLength(2);
    const statuses = [];
    for (const delivery of received) {
      expect(canonicalJson(JSON.parse(delivery.body))).toBe(delivery.body);
      const event = await verifyWebhook(delivery.body, delivery.headers, endpoint.secret);
      expect(event.type).toBe('message.status_updated');
      if (event.type === 'message.status_updated') statuses.push(event.data.message.status);
    }
    expect(statuses.sort()).toEqual(['delivered', 'sent']);
    expect((await parley.messages.get(message.id)).status).toBe('delivered');
  });

  it('after a rotation every delivery carries two signatures, new first, and each secret verifies', async () => {
    const { url, received } = await receiver();
    const app = (await control().listApplications()).data[0]!;
    const endpoint = await control().createEndpoint(app.id, { url, events: ['webhook.test'] });
    const rotated = await control().rotateSecret(endpoint.id);
    const parley = new Parley({ apiKey: server.sandboxKey, baseUrl: server.baseUrl });
    await parley.sandbox.events.create({ type: 'webhook.test' });
    await server.emulator.idle();
    const [delivery] = received;
    const signatures = String(delivery!.headers['parley-signature']).split(',');
    expect(signatures).toHaveLength(2);
    await expect(verifyWebhook(delivery!.body, delivery!.headers, rotated.secret)).resolves.toMatchObject({
      type: 'webhook.test',
    });
    await expect(verifyWebhook(delivery!.body, delivery!.headers, endpoint.secret)).resolves.toMatchObject({
      type: 'webhook.test',
    });
  });

  it('a live workspace: inbound opens the window, and the 1,001st send of the UTC day is a DailyLimitError', async () => {
    const workspace = await control().createWorkspace({ name: 'Acme' });
    const app = await control().createApplication({
      name: 'Shop',
      environment: 'live',
      workspace_id: workspace.id,
    });
    const { key } = await control().createKey(app.id, { accept_agreement: true });
    const connection = await control().createConnection(app.id, { phone_number: '+14155550100' });
    const live = new Parley({ apiKey: key, baseUrl: server.baseUrl, maxRetries: 0 });
    const textTo = (to: string) =>
      live.messages.send({ connection_id: connection.id, to, type: 'text', text: 'Bonjour' });
    expect((await textTo('+33611112222')).error).toMatchObject({ code: 'outside_messaging_window' });
    await control().receiveInbound(connection.id, { from: '+33611112222', text: 'Salut !' });
    expect((await textTo('+33611112222')).status).toBe('queued');
    // The other 998 sends of the day go through the control clock's minute windows (30 sends/min).
    let sent = 2;
    await control().advanceClock(60_000);
    while (sent < 1000) {
      const batch = Math.min(30, 1000 - sent);
      await Promise.all(Array.from({ length: batch }, () => textTo('+33611112222')));
      sent += batch;
      await control().advanceClock(60_000);
    }
    const refused = await textTo('+33611112222').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DailyLimitError);
    expect((refused as DailyLimitError).status).toBe(429);
  });
});
