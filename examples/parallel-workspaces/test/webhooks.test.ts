import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@parley/sdk/webhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { ACTIVE_CONNECTION, expectOwnTime, START, takeWorkspace } from './_workspace';

const SECRET = 'whsec_parallelWorkspacesExample0000001';
const received: { type: string; status: string; created_at: string }[] = [];
const receiver = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => {
    body += chunk;
  });
  request.on('end', async () => {
    const event = await verifyWebhook(body, request.headers, SECRET);
    if (event.type === 'message.status_updated') {
      received.push({ type: event.type, status: event.data.message.status, created_at: event.created_at });
    }
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

describe('status webhooks (worker with its own workspace and its own receiver)', () => {
  it('this receiver gets exactly its own message’s events, signed, timed by this workspace’s clock', async () => {
    const workspace = await takeWorkspace('webhooks');
    const { port } = receiver.address() as AddressInfo;
    await workspace.control.createEndpoint(workspace.applicationId, {
      url: `http://127.0.0.1:${port}/webhooks/parley`,
      events: ['message.status_updated'],
      secret: SECRET,
    });
    const message = await workspace.client().messages.send({
      connection_id: ACTIVE_CONNECTION,
      to: '+33612345678',
      type: 'text',
      text: 'Votre commande est prête.',
    });
    await workspace.advance(8_000);
    // The advance started both deliveries; they travel over real sockets, side by side.
    // Idle once no attempt is in flight: both have been answered, no polling.
    expect(await workspace.control.idle()).toEqual({ idle: true });
    expect(received).toHaveLength(2);
    const at = (ms: number) => new Date(START + ms).toISOString().replace('.000Z', 'Z');
    received.sort((a, b) => a.created_at.localeCompare(b.created_at));
    expect(received).toEqual([
      { type: 'message.status_updated', status: 'sent', created_at: at(2_000) },
      { type: 'message.status_updated', status: 'delivered', created_at: at(5_000) },
    ]);
    expect(await workspace.messageIds()).toEqual([message.id]);
    await expectOwnTime(workspace, 8_000);
  });
});
