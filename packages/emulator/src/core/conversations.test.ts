import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { T0, templateSend, testEmulator } from '../_testing/test-emulator';
import { SANDBOX_ACTIVE_CONNECTION_ID } from '../domain/sandbox-fixtures';
import { fillTemplate, MAX_TEMPLATE_VARIABLES_LENGTH } from '../domain/template-variables';
import { loadDirectory } from '../store/_load-directory';

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
    expect(view.items.at(-1)!.template_body).toBe('Bonjour Ada, votre commande A-42 est confirmée.');
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

describe('a template message shows its variables in its thread (issue 26)', () => {
  const thread = (emulator: ReturnType<typeof testEmulator>['emulator'], appId: string) =>
    emulator.control.getConversation(appId, { connectionId: SANDBOX_ACTIVE_CONNECTION_ID, number: CUSTOMER });
  const shipped = { name: 'order_confirmation', language: 'fr', variables: ['Ana', 'A-1042'] };

  async function sentTemplate(options: Parameters<typeof testEmulator>[0] = {}) {
    const tested = testEmulator(options);
    const answer = await tested.send(templateSend({ to: CUSTOMER, template: shipped }));
    expect(answer.status).toBe(202);
    const appId = (await tested.emulator.control.listApplications()).data[0]!.id;
    return { ...tested, appId, answer };
  }

  test('the body is filled; the /v1 message stays {name, language} (spec §3: variables are not echoed)', async () => {
    const { emulator, call, appId, answer } = await sentTemplate();
    const body = answer.body as Message;
    expect(body.template).toEqual({ name: 'order_confirmation', language: 'fr' });
    expect(Object.keys(body.template!)).toEqual(['name', 'language']);
    const fetched = await call('GET', `/v1/messages/${body.id}`);
    expect(fetched.body).toEqual({ ...body, status: 'queued' });
    expect(JSON.stringify((await call('GET', '/v1/messages')).body)).not.toContain('A-1042');
    const view = await thread(emulator, appId);
    expect(view.items.at(-1)!.template_body).toBe('Bonjour Ana, votre commande A-1042 est confirmée.');
    expect(view.items.at(-1)!.message.template).toEqual({ name: 'order_confirmation', language: 'fr' });
  });

  test('filling is one pass: a variable reading {{2}} is shown as typed', () => {
    expect(fillTemplate('{{1}} and {{2}}', ['{{2}}', 'x'])).toBe('{{2}} and x');
    expect(fillTemplate('{{1}} {{3}}', ['a'])).toBe('a {{3}}');
    expect(fillTemplate('{{1}}', undefined)).toBe('{{1}}');
  });

  test('a data dir keeps them across a restart; a record written before they were kept reads with its placeholders', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-variables-'));
    const restarted: ReturnType<typeof testEmulator>['emulator'][] = [];
    const restart = async () => {
      const next = testEmulator({ dataDir: dir }).emulator;
      restarted.push(next);
      await next.ready;
      expect(next.restored).toBe(true);
      return next;
    };
    try {
      const { emulator, appId, answer } = await sentTemplate({ dataDir: dir });
      const id = (answer.body as Message).id;
      // On disk once the 202 is answered (the journal), before any close writes a snapshot.
      expect(loadDirectory(dir).persisted!.state.messages[id]!.variables).toEqual(['Ana', 'A-1042']);
      await emulator.close();
      const again = await restart();
      expect((await thread(again, appId)).items.at(-1)!.template_body).toBe(
        'Bonjour Ana, votre commande A-1042 est confirmée.',
      );
      await again.close();
      // The snapshot as an emulator before issue 26 wrote it: no variables, and no checksum head yet.
      const snapshotPath = join(dir, 'state.json');
      const snapshot = JSON.parse(readFileSync(snapshotPath, 'utf8'));
      expect(snapshot.state.messages[id].variables).toEqual(['Ana', 'A-1042']);
      delete snapshot.state.messages[id].variables;
      delete snapshot.sha256;
      writeFileSync(snapshotPath, JSON.stringify(snapshot));
      for (const name of readdirSync(dir)) {
        expect(readFileSync(join(dir, name), 'utf8')).not.toContain('"variables"');
      }
      const old = await restart();
      expect((await thread(old, appId)).items.at(-1)!.template_body).toBe(
        'Bonjour {{1}}, votre commande {{2}} est confirmée.',
      );
    } finally {
      for (const emulator of restarted) await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('export → import keeps them; a bundle from before they were kept reads with its placeholders', async () => {
    const { emulator, appId } = await sentTemplate();
    const bundle = await emulator.control.export();
    expect(bundle.messages.at(-1)!.variables).toEqual(['Ana', 'A-1042']);
    const target = testEmulator();
    await target.emulator.control.import(bundle);
    expect((await thread(target.emulator, appId)).items.at(-1)!.template_body).toBe(
      'Bonjour Ana, votre commande A-1042 est confirmée.',
    );
    const old = structuredClone(bundle);
    delete old.messages.at(-1)!.variables;
    const older = testEmulator();
    await older.emulator.control.import(old);
    expect((await thread(older.emulator, appId)).items.at(-1)!.template_body).toBe(
      'Bonjour {{1}}, votre commande {{2}} est confirmée.',
    );
  });

  test(`a bundle's variables hold at most ${MAX_TEMPLATE_VARIABLES_LENGTH} characters, like a send's body`, async () => {
    const { emulator } = await sentTemplate();
    const bundle = await emulator.control.export();
    const withVariables = (variables: unknown) => {
      const copy = structuredClone(bundle) as { messages: { variables?: unknown }[] };
      copy.messages.at(-1)!.variables = variables;
      return copy as unknown as typeof bundle;
    };
    const half = MAX_TEMPLATE_VARIABLES_LENGTH / 2;
    await testEmulator().emulator.control.import(withVariables(['a'.repeat(half), 'b'.repeat(half)]));
    const over = await testEmulator()
      .emulator.control.import(withVariables(['a'.repeat(half), 'b'.repeat(half + 1)]))
      .catch((error: unknown) => error);
    expect(over).toMatchObject({ code: 'validation_error', details: { field: 'messages[0].variables' } });
    const notText = await testEmulator()
      .emulator.control.import(withVariables(['a', 7]))
      .catch((error: unknown) => error);
    expect(notText).toMatchObject({
      code: 'validation_error',
      details: { field: 'messages[0].variables[1]' },
    });
  });
});
