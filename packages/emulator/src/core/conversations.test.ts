import { describe, expect, test } from 'vitest';
import { T0, testEmulator } from '../_testing/test-emulator';
import { SANDBOX_ACTIVE_CONNECTION_ID } from '../domain/sandbox-fixtures';

const CUSTOMER = '+33611112222';
const DAY = 24 * 60 * 60 * 1000;

async function liveThread() {
  const { emulator } = testEmulator();
  const { control } = emulator;
  const app = await control.createApplication({ name: 'Shop', environment: 'live' });
  await control.createKey(app.id, { accept_agreement: true });
  const connection = await control.createConnection(app.id, { phone_number: '+14155550100' });
  const thread = () => control.getConversation(app.id, { connectionId: connection.id, number: CUSTOMER });
  const reply = (text: string) =>
    control.sendMessage(app.id, { connection_id: connection.id, to: CUSTOMER, type: 'text', text });
  return { control, app, connection, thread, reply };
}

describe('conversations (issue 26)', () => {
  test('live: the customer writes, the window opens for exactly 24 h, a reply walks queued → read with its times', async () => {
    const { control, app, connection, thread, reply } = await liveThread();
    expect((await thread()).window).toEqual({
      open: false,
      opened_at: null,
      expires_at: null,
      remaining_ms: 0,
    });
    await control.messageAsCustomer(app.id, { connection_id: connection.id, from: CUSTOMER, text: 'hi' });
    await reply('hello');
    await control.advanceClock(10_000);
    const view = await thread();
    expect(view.window).toEqual({
      open: true,
      opened_at: '2026-10-14T09:30:15Z',
      expires_at: '2026-10-15T09:30:15Z',
      remaining_ms: DAY - 10_000,
    });
    expect(view.daily_cap).toEqual({ limit: 1000, sent_today: 1 });
    expect(view.items.map((item) => [item.message.direction, item.message.text])).toEqual([
      ['inbound', 'hi'],
      ['outbound', 'hello'],
    ]);
    expect(view.items[1]!.history).toEqual([
      { status: 'queued', at: '2026-10-14T09:30:15Z' },
      { status: 'sent', at: '2026-10-14T09:30:17Z' },
      { status: 'delivered', at: '2026-10-14T09:30:20Z' },
      { status: 'read', at: '2026-10-14T09:30:25Z' },
    ]);
    expect(view.read_rule).toMatch(/simulated read step/);
    // At the window's last millisecond it is still open; at 24 h it is shut.
    await control.advanceClock(DAY - 10_000 - 1);
    expect((await thread()).window).toMatchObject({ open: true, remaining_ms: 1 });
    await control.advanceClock(1);
    expect((await thread()).window).toMatchObject({ open: false, remaining_ms: 0 });
    const late = await reply('still there?');
    expect(late).toMatchObject({ status: 'failed', error: { code: 'outside_messaging_window' } });
    const items = (await thread()).items;
    expect(items.at(-1)!.history).toEqual([{ status: 'failed', at: '2026-10-15T09:30:15Z' }]);
    const [summary] = (await control.listConversations(app.id)).data;
    expect(summary).toEqual({
      connection_id: connection.id,
      customer: CUSTOMER,
      last_message_at: '2026-10-15T09:30:15Z',
      last_text: 'still there?',
      last_direction: 'outbound',
      message_count: 3,
    });
  });

  test('sandbox: the typed sender and text become the synthetic message.received; threads are per number, newest first', async () => {
    const { emulator } = testEmulator();
    const { control } = emulator;
    const app = await control.createApplication({ name: 'Sbx', environment: 'sandbox' });
    const write = (from: string, text: string) =>
      control.messageAsCustomer(app.id, { connection_id: SANDBOX_ACTIVE_CONNECTION_ID, from, text });
    await write(CUSTOMER, 'first');
    await control.advanceClock(1_000);
    await write('+33699990000', 'second');
    const events = (await control.listEvents({ applicationId: app.id })).data;
    expect(events[0]).toMatchObject({
      type: 'message.received',
      data: {
        message: { from: '+33699990000', text: 'second', connection_id: SANDBOX_ACTIVE_CONNECTION_ID },
      },
    });
    expect((await control.listConversations(app.id)).data.map((thread) => thread.customer)).toEqual([
      '+33699990000',
      CUSTOMER,
    ]);
    await control.sendMessage(app.id, {
      connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
      to: CUSTOMER,
      type: 'template',
      template: { name: 'order_confirmation', language: 'fr', variables: ['Ada', 'A-42'] },
    });
    const view = await control.getConversation(app.id, {
      connectionId: SANDBOX_ACTIVE_CONNECTION_ID,
      number: CUSTOMER,
    });
    expect(view).toMatchObject({
      environment: 'sandbox',
      window: null,
      daily_cap: null,
      now: new Date(T0 + 1_000).toISOString().replace('.000', ''),
    });
    expect(view.items.at(-1)!.template_body).toBe('Bonjour {{1}}, votre commande {{2}} est confirmée.');
    expect(view.read_rule).toMatch(/\+15550101002/);
  });

  test('a thread keeps its newest 200 messages and counts the earlier ones', async () => {
    const { emulator } = testEmulator();
    const { control } = emulator;
    const app = await control.createApplication({ name: 'Sbx', environment: 'sandbox' });
    for (let index = 0; index < 201; index++) {
      await control.messageAsCustomer(app.id, {
        connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
        from: CUSTOMER,
        text: `m${index}`,
      });
    }
    const view = await control.getConversation(app.id, {
      connectionId: SANDBOX_ACTIVE_CONNECTION_ID,
      number: CUSTOMER,
    });
    expect(view.items).toHaveLength(200);
    expect(view.earlier).toBe(1);
    expect(view.items[0]!.message.text).toBe('m1');
    expect(view.items.at(-1)!.message.text).toBe('m200');
  });
});
