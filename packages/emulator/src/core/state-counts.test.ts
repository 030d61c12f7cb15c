import { describe, expect, test } from 'vitest';
import { templateSend, testEmulator } from '../_testing/test-emulator';

describe('GET /_emulator/health counts', () => {
  test('counts what was created, and the deliveries still to be attempted', async () => {
    const { call, emulator, send } = testEmulator();
    await send(templateSend());
    const app = (await emulator.control.listApplications()).data[0]!;
    await emulator.control.createKey(app.id, {});
    const endpoint = await emulator.control.createEndpoint(app.id, {
      url: 'http://127.0.0.1:9/webhooks',
      events: ['webhook.test'],
    });
    await emulator.control.testEndpoint(endpoint.id);
    expect((await call('GET', '/_emulator/health')).body.counts).toEqual({
      workspaces: 1,
      applications: 1,
      keys: 2,
      endpoints: 1,
      messages: 1,
      pending_deliveries: 1,
    });
    await emulator.control.deleteEndpoint(endpoint.id);
    expect((await emulator.control.health()).counts).toMatchObject({ endpoints: 0, pending_deliveries: 0 });
  });
});
