import { describe, expect, test } from 'vitest';
import { createAppWithKey, templateSend, testEmulator } from '../_testing/test-emulator';

describe('GET /_emulator/messages pages from the newest without scanning the history', () => {
  test('250 messages in pages of 100, newest first; a message sent meanwhile does not shift the pages', async () => {
    const { call, send, emulator } = testEmulator({ rateLimits: false });
    const ids: string[] = [];
    for (let index = 0; index < 250; index++) ids.push((await send(templateSend())).body.id);
    const first = await call('GET', '/_emulator/messages?limit=100');
    expect(first.body.data.map((message: { id: string }) => message.id)).toEqual(ids.slice(150).reverse());
    expect(first.body.has_more).toBe(true);
    // Sent between two pages: it belongs before the first page, so the next pages are unchanged.
    const late = (await send(templateSend())).body.id;
    const second = await call('GET', `/_emulator/messages?limit=100&cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((message: { id: string }) => message.id)).toEqual(
      ids.slice(50, 150).reverse(),
    );
    const third = await call('GET', `/_emulator/messages?limit=100&cursor=${second.body.next_cursor}`);
    expect(third.body.data.map((message: { id: string }) => message.id)).toEqual(ids.slice(0, 50).reverse());
    expect(third.body).toMatchObject({ has_more: false, next_cursor: null });
    expect((await call('GET', '/_emulator/messages?limit=1')).body.data[0].id).toBe(late);
    let listed = 0;
    let cursor: string | null = null;
    do {
      const page = await emulator.control.listMessages({
        limit: 100,
        ...(cursor === null ? {} : { cursor }),
      });
      listed += page.data.length;
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(listed).toBe(251);
  });

  test('a page exactly full says has_more false; the application filter pages only its messages', async () => {
    const { call, send, emulator } = testEmulator({ rateLimits: false });
    const other = await createAppWithKey(emulator, 'sandbox');
    const mine: string[] = [];
    for (let index = 0; index < 5; index++) {
      mine.push((await send(templateSend())).body.id);
      await send(templateSend(), { key: other.key });
    }
    const apps = (await emulator.control.listApplications()).data;
    const defaultApp = apps.find((app) => app.id !== other.app.id)!;
    const page = await call('GET', `/_emulator/messages?limit=5&application_id=${defaultApp.id}`);
    expect(page.body.data.map((message: { id: string }) => message.id)).toEqual([...mine].reverse());
    expect(page.body).toMatchObject({ has_more: false, next_cursor: null });
    const two = await call('GET', `/_emulator/messages?limit=2&application_id=${defaultApp.id}`);
    const rest = await call(
      'GET',
      `/_emulator/messages?limit=3&application_id=${defaultApp.id}&cursor=${two.body.next_cursor}`,
    );
    expect([...two.body.data, ...rest.body.data].map((message: { id: string }) => message.id)).toEqual(
      [...mine].reverse(),
    );
  });

  test('a cursor of another list, or past the end, is a validation_error', async () => {
    const { call, send } = testEmulator();
    await send(templateSend());
    for (const cursor of [
      Buffer.from('o:0').toString('base64url'),
      Buffer.from('p:5').toString('base64url'),
      'x',
    ]) {
      const answer = await call('GET', `/_emulator/messages?cursor=${cursor}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'validation_error', details: { field: 'cursor' } });
    }
    expect(
      (await call('GET', `/_emulator/messages?cursor=${Buffer.from('p:0').toString('base64url')}`)).status,
    ).toBe(200);
  });
});
