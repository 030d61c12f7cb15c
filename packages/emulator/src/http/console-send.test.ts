import { describe, expect, test } from 'vitest';
import { createAppWithKey, templateSend, testEmulator, textSend } from '../_testing/test-emulator';
import { SANDBOX_ACTIVE_CONNECTION_ID } from '../domain/sandbox-fixtures';

describe('the console’s control additions', () => {
  test('GET /applications/{id}/connections lists what the application sends through, with templates', async () => {
    const { emulator, call } = testEmulator();
    const { app } = await createAppWithKey(emulator, 'sandbox');
    const listed = await call('GET', `/_emulator/applications/${app.id}/connections`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((connection: { status: string }) => connection.status)).toEqual([
      'active',
      'disconnected',
    ]);
    expect(listed.body.data[0].templates[1]).toMatchObject({
      name: 'order_confirmation',
      variable_count: 2,
      body: 'Bonjour {{1}}, votre commande {{2}} est confirmée.',
      connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
    });
    const live = await createAppWithKey(emulator, 'live');
    await call('POST', `/_emulator/applications/${live.app.id}/connections`, {
      body: { phone_number: '+33100000001', name: 'Shop' },
    });
    const liveList = await call('GET', `/_emulator/applications/${live.app.id}/connections`);
    expect(liveList.body.data.map((connection: { name: string }) => connection.name)).toEqual(['Shop']);
    expect((await call('GET', '/_emulator/applications/nope/connections')).status).toBe(404);
  });

  test('POST /applications/{id}/messages sends as the application with every send rule, charging no key', async () => {
    const { emulator, call } = testEmulator();
    const { app } = await createAppWithKey(emulator, 'sandbox');
    const sent = await call('POST', `/_emulator/applications/${app.id}/messages`, { body: templateSend() });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ status: 'queued', template: { name: 'order_confirmation' } });
    const again = await call('POST', `/_emulator/applications/${app.id}/messages`, { body: templateSend() });
    expect(again.body.id).not.toBe(sent.body.id);
    const refused = await call('POST', `/_emulator/applications/${app.id}/messages`, {
      body: templateSend({ template: { name: 'order_confirmation', language: 'fr', variables: ['Ana'] } }),
    });
    expect(refused.status).toBe(400);
    const unreachable = await call('POST', `/_emulator/applications/${app.id}/messages`, {
      body: textSend({ to: '+33600000000' }),
    });
    expect(unreachable.body.status).toBe('failed');
    const messages = await call('GET', `/_emulator/messages?application_id=${app.id}`);
    expect(messages.body.data).toHaveLength(3);
    expect((await emulator.control.usage(app.id)).keys[0]!.buckets.sends.used).toBe(0);
  });
});
