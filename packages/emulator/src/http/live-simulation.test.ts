import { describe, expect, test } from 'vitest';
import { type CallOptions, testEmulator } from '../_testing/test-emulator';

const CUSTOMER = '+33611112222';

async function liveSetup(options: { rateLimits?: boolean } = {}) {
  const harness = testEmulator(options);
  const { emulator } = harness;
  const workspace = await emulator.control.createWorkspace({ name: 'Acme' });
  const app = await emulator.control.createApplication({
    name: 'Shop',
    environment: 'live',
    workspace_id: workspace.id,
  });
  const { key } = await emulator.control.createKey(app.id, { accept_agreement: true });
  const connection = await emulator.control.createConnection(app.id, {
    phone_number: '+14155550100',
    name: 'Acme FR',
  });
  const sendLive = (body: Record<string, unknown>, options: CallOptions = {}) =>
    harness.send({ connection_id: connection.id, to: CUSTOMER, ...body }, { key, ...options });
  return { ...harness, workspace, app, key, connection, sendLive };
}

const hello = { type: 'template', template: { name: 'hello_world', language: 'en', variables: [] } };

describe('developer agreement', () => {
  test('the first live key of a workspace needs accept_agreement: 409 agreement_required', async () => {
    const { emulator, call } = testEmulator();
    const workspace = await emulator.control.createWorkspace({ name: 'Acme' });
    const app = await emulator.control.createApplication({
      name: 'Shop',
      environment: 'live',
      workspace_id: workspace.id,
    });
    const refused = await call('POST', `/_emulator/applications/${app.id}/keys`, {
      body: { scopes: ['system.status.read'] },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('agreement_required');
    const accepted = await call('POST', `/_emulator/applications/${app.id}/keys`, {
      body: { accept_agreement: true },
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body.key).toMatch(/^prl_live_[A-Za-z0-9]{32}$/);
    const second = await call('POST', `/_emulator/applications/${app.id}/keys`, { body: {} });
    expect(second.status).toBe(201);
    const sandbox = await emulator.control.createApplication({
      name: 'Sbx',
      environment: 'sandbox',
      workspace_id: workspace.id,
    });
    expect((await call('POST', `/_emulator/applications/${sandbox.id}/keys`, { body: {} })).status).toBe(201);
  });
});

describe('live simulation (DESIGN §4)', () => {
  test('simulated connections carry the sandbox templates', async () => {
    const { call, key, connection } = await liveSetup();
    const answer = await call('GET', `/v1/connections/${connection.id}/templates`, { key });
    expect(
      answer.body.data.map((template: { name: string; connection_id: string }) => [
        template.name,
        template.connection_id,
      ]),
    ).toEqual([
      ['hello_world', connection.id],
      ['order_confirmation', connection.id],
    ]);
  });

  test('GET /v1/status of a live key says live', async () => {
    const { call, key } = await liveSetup();
    const answer = await call('GET', '/v1/status', { key });
    expect(answer.body).toMatchObject({ environment: 'live', sandbox_external_calls: false });
  });

  test('queued → sent (2 s) → delivered (5 s) → read (10 s), one live event each', async () => {
    const { sendLive, call, key, emulator, app } = await liveSetup();
    const accepted = await sendLive(hello);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ status: 'queued', livemode: true });
    const statusAt = async (ms: number) => {
      await emulator.clock.advance(ms);
      return (await call('GET', `/v1/messages/${accepted.body.id}`, { key })).body.status;
    };
    expect(await statusAt(1_999)).toBe('queued');
    expect(await statusAt(1)).toBe('sent');
    expect(await statusAt(3_000)).toBe('delivered');
    expect(await statusAt(4_999)).toBe('delivered');
    expect(await statusAt(1)).toBe('read');
    const statuses = (await emulator.control.listEvents({ applicationId: app.id })).data
      .filter((event) => event.type === 'message.status_updated')
      .map((event) => [(event.data as { message: { status: string } }).message.status, event.livemode]);
    expect(statuses).toEqual([
      ['read', true],
      ['delivered', true],
      ['sent', true],
    ]);
  });

  test('text needs the customer’s 24 h window: outside it the message fails with outside_messaging_window', async () => {
    const { sendLive, emulator, connection, call, key } = await liveSetup();
    const outside = await sendLive({ type: 'text', text: 'Hello?' });
    expect(outside.status).toBe(202);
    expect(outside.body.status).toBe('failed');
    expect(outside.body.error).toMatchObject({ code: 'outside_messaging_window' });

    const inbound = await call('POST', `/_emulator/connections/${connection.id}/inbound`, {
      body: { from: CUSTOMER, text: 'Bonjour, ma commande ?' },
    });
    expect(inbound.status).toBe(201);
    expect(inbound.body).toMatchObject({
      direction: 'inbound',
      status: 'received',
      from: CUSTOMER,
      to: null,
      livemode: true,
    });
    expect((await call('GET', `/v1/messages/${inbound.body.id}`, { key })).body.text).toBe(
      'Bonjour, ma commande ?',
    );

    expect((await sendLive({ type: 'text', text: 'Elle arrive demain.' })).body.status).toBe('queued');
    await emulator.clock.advance(24 * 3_600_000 - 1);
    expect((await sendLive({ type: 'text', text: 'Encore là ?' })).body.status).toBe('queued');
    await emulator.clock.advance(1);
    expect((await sendLive({ type: 'text', text: 'Trop tard.' })).body.error.code).toBe(
      'outside_messaging_window',
    );
    expect((await sendLive(hello)).body.status).toBe('queued');
    const received = (await emulator.control.listEvents()).data.filter(
      (event) => event.type === 'message.received',
    );
    expect(received).toHaveLength(1);
  });

  test('disconnect: connection.disconnected, then sends through it get 409 connection_inactive', async () => {
    const { sendLive, call, connection, emulator } = await liveSetup();
    const answer = await call('POST', `/_emulator/connections/${connection.id}/disconnect`, { body: {} });
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('disconnected');
    expect((await emulator.control.listEvents()).data[0]).toMatchObject({
      type: 'connection.disconnected',
      livemode: true,
    });
    const refused = await sendLive(hello);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('connection_inactive');
  });

  test('live events go to every live application of the workspace, and nowhere else', async () => {
    const { emulator, app, workspace, connection } = await liveSetup();
    const sibling = await emulator.control.createApplication({
      name: 'CRM',
      environment: 'live',
      workspace_id: workspace.id,
    });
    const sandbox = await emulator.control.createApplication({
      name: 'Sbx',
      environment: 'sandbox',
      workspace_id: workspace.id,
    });
    const stranger = await emulator.control.createApplication({ name: 'Other', environment: 'live' });
    const url = 'http://127.0.0.1:9/hook';
    for (const target of [app, sibling, sandbox, stranger]) {
      await emulator.control.createEndpoint(target.id, { url, events: ['message.received'] });
    }
    await emulator.control.receiveInbound(connection.id, { from: CUSTOMER, text: 'Salut' });
    const reached = async (target: { id: string }) =>
      (await emulator.control.listDeliveries({ applicationId: target.id })).data.filter(
        (d) => d.event_type === 'message.received',
      );
    expect(await reached(app)).toHaveLength(1);
    expect(await reached(sibling)).toHaveLength(1);
    expect(await reached(sandbox)).toHaveLength(0);
    expect(await reached(stranger)).toHaveLength(0);
  });

  test('creating an application emits developer.application.created to the live applications of its workspace', async () => {
    const { emulator, app, workspace } = await liveSetup();
    const created = await emulator.control.createApplication({
      name: 'New',
      environment: 'sandbox',
      workspace_id: workspace.id,
    });
    const [event] = (await emulator.control.listEvents({ applicationId: app.id })).data;
    expect(event).toMatchObject({
      type: 'developer.application.created',
      livemode: true,
      data: { application_id: created.id, environment: 'sandbox' },
    });
  });

  test('daily cap: 1,000 accepted sends per workspace per UTC day, then 429 until the next UTC midnight', async () => {
    const { sendLive, emulator, app, connection, call } = await liveSetup({ rateLimits: false });
    const other = await emulator.control.createKey(app.id, {});
    for (let index = 0; index < 999; index++) expect((await sendLive(hello)).status).toBe(202);
    // The window rule fails this text, but it was accepted: it counts.
    expect((await sendLive({ type: 'text', text: 'x' }, { key: other.key })).status).toBe(202);
    const refused = await sendLive(hello, { key: other.key });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('daily_send_limit_reached');
    // 09:30:15 → next midnight is 14 h 29 min 45 s away.
    expect(refused.headers.get('retry-after')).toBe(String(14 * 3600 + 29 * 60 + 45));
    expect((await emulator.control.usage(app.id)).workspaces[0]).toMatchObject({
      sends_today: 1000,
      daily_limit: 1000,
    });
    await emulator.clock.advance((14 * 3600 + 29 * 60 + 44) * 1000);
    expect((await sendLive(hello)).status).toBe(429);
    await emulator.clock.advance(1_000);
    expect((await sendLive(hello)).status).toBe(202);
    expect(connection.livemode).toBe(true);
    expect((await call('GET', '/_emulator/usage')).status).toBe(200);
  });

  test('sandbox keys have no daily cap', async () => {
    const { send } = testEmulator({ rateLimits: false });
    const body = { connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51', to: '+33612345678', ...hello };
    for (let index = 0; index < 1001; index++) expect((await send(body)).status).toBe(202);
  });
});
