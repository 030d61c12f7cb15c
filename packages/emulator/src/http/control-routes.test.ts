import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { T0, templateSend, testEmulator } from '../_testing/test-emulator';
import { DEFAULT_WORKSPACE_ID } from '../core/defaults';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function receiver(status: number): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(status).end());
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

describe('control API (DESIGN §4)', () => {
  test('health and clock', async () => {
    const { call } = testEmulator();
    expect((await call('GET', '/_emulator/health')).body).toEqual({
      ok: true,
      version: expect.any(String),
      counts: { workspaces: 1, applications: 1, keys: 1, endpoints: 0, messages: 0, pending_deliveries: 0 },
    });
    expect((await call('GET', '/_emulator/clock')).body).toEqual({
      now: new Date(T0).toISOString(),
      mode: 'frozen',
    });
    const advanced = await call('POST', '/_emulator/clock/advance', { body: { ms: 60_000 } });
    expect(advanced.status).toBe(200);
    expect(advanced.body).toEqual({ now: new Date(T0 + 60_000).toISOString() });
    for (const ms of [-1, 'soon', undefined]) {
      const refused = await call('POST', '/_emulator/clock/advance', { body: { ms } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details).toMatchObject({ field: 'ms' });
    }
  });

  test('clock/advance runs the due status timers: a message is delivered after 5 s', async () => {
    const { call, send } = testEmulator();
    const { body: message } = await send(templateSend());
    await call('POST', '/_emulator/clock/advance', { body: { ms: 5_000 } });
    const events = await call('GET', '/_emulator/events');
    expect(
      events.body.data.map((event: { data: { message: { status: string } } }) => event.data.message.status),
    ).toEqual(['delivered', 'sent']);
    expect((await call('GET', `/v1/messages/${message.id}`)).body.status).toBe('delivered');
  });

  test('workspaces and applications: create, list, validation', async () => {
    const { call } = testEmulator();
    const workspace = await call('POST', '/_emulator/workspaces', { body: { name: 'Acme' } });
    expect(workspace.status).toBe(201);
    expect(workspace.body).toEqual({
      id: expect.any(String),
      name: 'Acme',
      created_at: '2026-10-14T09:30:15Z',
      clock: 'global',
    });
    expect((await call('POST', '/_emulator/workspaces', { body: {} })).body.error.details).toEqual({
      field: 'name',
      reason: 'required',
    });
    const app = await call('POST', '/_emulator/applications', {
      body: { name: 'Shop', environment: 'sandbox', workspace_id: workspace.body.id },
    });
    expect(app.status).toBe(201);
    expect(app.body).toEqual({
      id: expect.any(String),
      workspace_id: workspace.body.id,
      name: 'Shop',
      environment: 'sandbox',
      created_at: '2026-10-14T09:30:15Z',
    });
    const defaulted = await call('POST', '/_emulator/applications', {
      body: { name: 'Default', environment: 'live' },
    });
    expect(defaulted.body.workspace_id).toBe(DEFAULT_WORKSPACE_ID);
    expect(
      (await call('POST', '/_emulator/applications', { body: { name: 'x', environment: 'prod' } })).status,
    ).toBe(400);
    const unknown = await call('POST', '/_emulator/applications', {
      body: { name: 'x', environment: 'live', workspace_id: 'nope' },
    });
    expect(unknown.status).toBe(404);
    const list = await call('GET', '/_emulator/applications');
    expect(list.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(list.body.data).toHaveLength(3);
    const workspaces = await call('GET', '/_emulator/workspaces');
    expect(workspaces.body.data.map((entry: { name: string }) => entry.name)).toEqual([
      'Default workspace',
      'Acme',
    ]);
  });

  test('keys: the key is shown once, scoped as asked; an unknown application is 404', async () => {
    const { call } = testEmulator();
    const app = await call('POST', '/_emulator/applications', {
      body: { name: 'Shop', environment: 'sandbox' },
    });
    const created = await call('POST', `/_emulator/applications/${app.body.id}/keys`, {
      body: { scopes: ['system.status.read'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(String),
      key: expect.stringMatching(/^prl_sandbox_/),
      scopes: ['system.status.read'],
    });
    expect((await call('GET', '/v1/status', { key: created.body.key })).status).toBe(200);
    expect((await call('GET', '/v1/connections', { key: created.body.key })).status).toBe(403);
    const bad = await call('POST', `/_emulator/applications/${app.body.id}/keys`, {
      body: { scopes: 'all' },
    });
    expect(bad.status).toBe(400);
    const missing = await call('POST', '/_emulator/applications/0b7d7c1e-5f0e-4f5b-a1c2-9e8d7c6b5a49/keys', {
      body: {},
    });
    expect(missing.status).toBe(404);
  });

  test('endpoints: create (secret once), list, patch, test, rotate, delete', async () => {
    const { call, emulator } = testEmulator();
    const app = (await emulator.control.listApplications()).data[0]!;
    const url = await receiver(200);
    const created = await call('POST', `/_emulator/applications/${app.id}/endpoints`, {
      body: { url, events: ['message.status_updated'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(String),
      url,
      events: ['message.status_updated'],
      active: true,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    const listed = await call('GET', `/_emulator/endpoints?application_id=${app.id}`);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].secret).toBeUndefined();
    const patched = await call('PATCH', `/_emulator/endpoints/${created.body.id}`, {
      body: { active: false },
    });
    expect(patched.body.active).toBe(false);
    const tested = await call('POST', `/_emulator/endpoints/${created.body.id}/test`, { body: {} });
    expect(tested.status).toBe(202);
    expect(tested.body.event_id).toMatch(/^evt_[0-9a-f]{32}$/);
    const rotated = await call('POST', `/_emulator/endpoints/${created.body.id}/rotate-secret`, { body: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect(rotated.body.previous_expires_at).toBe(new Date(T0 + 86_400_000).toISOString());
    const deleted = await emulator.fetch(
      new Request(`http://127.0.0.1:4010/_emulator/endpoints/${created.body.id}`, { method: 'DELETE' }),
    );
    expect(deleted.status).toBe(204);
    expect((await call('GET', '/_emulator/endpoints')).body.data).toEqual([]);
    expect(
      (await call('PATCH', `/_emulator/endpoints/${created.body.id}`, { body: { active: true } })).status,
    ).toBe(404);
  });

  test('an endpoint URL refused by the policy: 400 invalid_url', async () => {
    const { call, emulator } = testEmulator();
    const app = (await emulator.control.listApplications()).data[0]!;
    const refused = await call('POST', `/_emulator/applications/${app.id}/endpoints`, {
      body: { url: 'ftp://127.0.0.1/hook', events: ['webhook.test'] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_url');
  });

  test('deliveries: listed per endpoint with attempts; a finished one can be replayed', async () => {
    const { call, emulator, send } = testEmulator();
    const app = (await emulator.control.listApplications()).data[0]!;
    const endpoint = await emulator.control.createEndpoint(app.id, {
      url: await receiver(200),
      events: ['message.status_updated'],
    });
    await send(templateSend({ to: '+33612340000' }));
    await emulator.clock.advance(0);
    await emulator.idle();
    const deliveries = await call('GET', `/_emulator/deliveries?endpoint_id=${endpoint.id}`);
    expect(deliveries.body.data).toHaveLength(1);
    const [delivery] = deliveries.body.data;
    expect(delivery).toMatchObject({
      endpoint_id: endpoint.id,
      event_type: 'message.status_updated',
      status: 'delivered',
    });
    expect(delivery.attempts[0]).toMatchObject({ status_code: 200, error: null });
    const replayed = await call('POST', `/_emulator/deliveries/${delivery.id}/replay`, { body: {} });
    expect(replayed.status).toBe(202);
    expect(replayed.body.event_id).toBe(delivery.event_id);
    expect((await call('POST', '/_emulator/deliveries/nope/replay', { body: {} })).status).toBe(404);
  });

  test('messages and events: newest first, filterable by application, paginated', async () => {
    const { call, emulator, send } = testEmulator();
    const app = (await emulator.control.listApplications()).data[0]!;
    const first = await send(templateSend());
    const second = await send(templateSend());
    const all = await call('GET', `/_emulator/messages?application_id=${app.id}`);
    expect(all.body.data.map((message: { id: string }) => message.id)).toEqual([
      second.body.id,
      first.body.id,
    ]);
    const page = await call('GET', '/_emulator/messages?limit=1');
    expect(page.body).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    expect((await call('GET', '/_emulator/messages?application_id=someone-else')).body.data).toEqual([]);
    await call('POST', '/v1/sandbox/events', { body: { type: 'webhook.test' } });
    const events = await call('GET', `/_emulator/events?application_id=${app.id}`);
    expect(events.body.data[0].type).toBe('webhook.test');
  });

  test('connections: only for live applications; disconnect and inbound need a simulated connection', async () => {
    const { call, emulator } = testEmulator();
    const sandbox = (await emulator.control.listApplications()).data[0]!;
    const refused = await call('POST', `/_emulator/applications/${sandbox.id}/connections`, {
      body: { phone_number: '+14155550100', name: 'x' },
    });
    expect(refused.status).toBe(400);
    const live = await emulator.control.createApplication({ name: 'Live', environment: 'live' });
    const created = await call('POST', `/_emulator/applications/${live.id}/connections`, {
      body: { phone_number: '+14155550100', name: 'Acme' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'connection',
      status: 'active',
      livemode: true,
      quality_rating: 'GREEN',
    });
    expect((await emulator.control.listEvents({ applicationId: live.id })).data[0]).toMatchObject({
      type: 'connection.connected',
    });
    const badNumber = await call('POST', `/_emulator/applications/${live.id}/connections`, {
      body: { phone_number: '555' },
    });
    expect(badNumber.body.error.details).toEqual({ field: 'phone_number', reason: 'invalid_format' });
    const unknown = '0b7d7c1e-5f0e-4f5b-a1c2-9e8d7c6b5a49';
    expect((await call('POST', `/_emulator/connections/${unknown}/disconnect`, { body: {} })).status).toBe(
      404,
    );
    expect(
      (
        await call('POST', `/_emulator/connections/${unknown}/inbound`, {
          body: { from: '+33611112222', text: 'x' },
        })
      ).status,
    ).toBe(404);
    const badInbound = await call('POST', `/_emulator/connections/${created.body.id}/inbound`, {
      body: { from: 'me', text: 'x' },
    });
    expect(badInbound.status).toBe(400);
  });

  test('usage: per key windows and per workspace sends today', async () => {
    const { call, emulator } = testEmulator();
    const app = (await emulator.control.listApplications()).data[0]!;
    await call('GET', '/v1/status');
    const usage = await call('GET', `/_emulator/usage?application_id=${app.id}`);
    expect(usage.body.keys[0]).toMatchObject({
      application_id: app.id,
      buckets: { requests: { used: 1, limit: 60 } },
    });
    expect(usage.body.workspaces[0]).toMatchObject({ day: '2026-10-14', sends_today: 0, daily_limit: 1000 });
    expect((await call('GET', '/_emulator/usage?application_id=nope')).status).toBe(404);
  });

  test('reset: back to the seed state, the ready key still works, timers are gone', async () => {
    const { call, emulator, send } = testEmulator();
    await call('POST', '/_emulator/applications', { body: { name: 'Temp', environment: 'sandbox' } });
    await send(templateSend());
    const reset = await call('POST', '/_emulator/reset', { body: {} });
    expect(reset.status).toBe(200);
    expect((await call('GET', '/_emulator/applications')).body.data).toHaveLength(1);
    expect((await call('GET', '/_emulator/messages')).body.data).toEqual([]);
    await emulator.clock.advance(10_000);
    expect((await call('GET', '/_emulator/events')).body.data).toEqual([]);
    expect((await call('GET', '/v1/status')).status).toBe(200);
  });

  test('state changes only as application/json (415); DELETE and GET need no body', async () => {
    const { call } = testEmulator();
    for (const contentType of [undefined, 'text/plain', 'application/x-www-form-urlencoded']) {
      const answer = await call('POST', '/_emulator/reset', {
        raw: '{}',
        headers: contentType ? { 'content-type': contentType } : {},
      });
      expect(answer.status).toBe(415);
      expect(answer.body.error.code).toBe('unsupported_media_type');
    }
    expect(
      (
        await call('POST', '/_emulator/workspaces', {
          raw: '{"name":',
          headers: { 'content-type': 'application/json' },
        })
      ).body.error.code,
    ).toBe('invalid_json');
    expect((await call('GET', '/_emulator/nothing')).status).toBe(404);
  });
});
