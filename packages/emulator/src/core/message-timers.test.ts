import { describe, expect, test } from 'vitest';
import { templateSend, testEmulator } from '../_testing/test-emulator';

describe('status timers', () => {
  test('messages accepted at different times each get their steps at their own ages, in order', async () => {
    const { send, emulator } = testEmulator();
    const first = await send(templateSend());
    await emulator.clock.advance(1_000);
    const second = await send(templateSend());
    await emulator.clock.advance(500);
    const third = await send(templateSend());
    await emulator.clock.advance(10_000);
    const announced = (await emulator.control.listEvents({ limit: 100 })).data.reverse().map((event) => {
      const { message } = event.data as { message: { id: string; status: string } };
      return [message.id, message.status, event.created_at];
    });
    expect(announced).toEqual([
      [first.body.id, 'sent', '2026-10-14T09:30:17Z'],
      [second.body.id, 'sent', '2026-10-14T09:30:18Z'],
      [third.body.id, 'sent', '2026-10-14T09:30:18Z'],
      [first.body.id, 'delivered', '2026-10-14T09:30:20Z'],
      [second.body.id, 'delivered', '2026-10-14T09:30:21Z'],
      [third.body.id, 'delivered', '2026-10-14T09:30:21Z'],
    ]);
  });

  test('sandbox and live messages share the lines: live ones also get read at 10 s', async () => {
    const { send, emulator } = testEmulator();
    const app = await emulator.control.createApplication({ name: 'Live', environment: 'live' });
    const { key } = await emulator.control.createKey(app.id, { accept_agreement: true });
    const connection = await emulator.control.createConnection(app.id, { phone_number: '+14155550100' });
    const live = await send(
      {
        ...templateSend(),
        connection_id: connection.id,
        template: { name: 'hello_world', language: 'en', variables: [] },
      },
      { key },
    );
    const sandbox = await send(templateSend());
    await emulator.clock.advance(60_000);
    const statusesOf = async (id: string) =>
      (await emulator.control.listEvents({ limit: 100 })).data
        .filter((event) => (event.data as { message?: { id: string } }).message?.id === id)
        .map((event) => (event.data as { message: { status: string } }).message.status)
        .reverse();
    expect(await statusesOf(live.body.id)).toEqual(['sent', 'delivered', 'read']);
    expect(await statusesOf(sandbox.body.id)).toEqual(['sent', 'delivered']);
  });

  test('a reset drops the timers of the old state', async () => {
    const { send, emulator } = testEmulator();
    await send(templateSend());
    await emulator.control.reset();
    await emulator.clock.advance(10_000);
    expect((await emulator.control.listEvents()).data).toEqual([]);
  });
});
