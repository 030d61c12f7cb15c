import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { verifyWebhook } from '@parley/sdk';
import { afterEach, describe, expect, test } from 'vitest';
import { testEmulator } from '../_testing/test-emulator';

const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJ01';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A receiver that keeps each delivery's raw body and headers. */
async function receiver() {
  const received: { body: Buffer; headers: IncomingHttpHeaders }[] = [];
  const server = createServer(async (request, response) => {
    received.push({ body: await buffer(request), headers: request.headers });
    response.writeHead(204).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, received };
}

describe('POST /_emulator/applications/{id}/endpoints with a chosen secret', () => {
  test('signs with the given secret; two endpoints may share it', async () => {
    const { call, emulator } = testEmulator();
    const app = (await emulator.control.listApplications()).data[0]!;
    const target = await receiver();
    const create = () =>
      call('POST', `/_emulator/applications/${app.id}/endpoints`, {
        body: { url: target.url, events: ['webhook.test'], secret: SECRET },
      });
    const first = await create();
    expect(first.status).toBe(201);
    expect(first.body.secret).toBe(SECRET);
    expect((await create()).body.secret).toBe(SECRET);

    await call('POST', `/_emulator/endpoints/${first.body.id}/test`, { body: {} });
    await emulator.idle();
    expect(target.received).toHaveLength(1);
    const delivery = target.received[0]!;
    await expect(verifyWebhook(delivery.body, delivery.headers, SECRET)).resolves.toMatchObject({
      type: 'webhook.test',
    });
  });

  test('refuses a secret of another shape: 400 validation_error on field secret', async () => {
    const { call, emulator } = testEmulator();
    const app = (await emulator.control.listApplications()).data[0]!;
    for (const secret of ['whsec_short', `${SECRET}x`, 'whsec_0123456789abcdefghijABCDEFGHIJ-1', 42, null]) {
      const refused = await call('POST', `/_emulator/applications/${app.id}/endpoints`, {
        body: { url: 'http://127.0.0.1:3000/webhooks', events: ['webhook.test'], secret },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: 'validation_error',
        details: { field: 'secret', reason: 'invalid_format' },
      });
    }
  });
});
