import { startReceiver, type TestReceiver } from '@parley/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { testEmulator } from '../_testing/test-emulator';

const RESERVED_IDS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

const receivers: TestReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

/** Every own property Object.prototype has, so a test can prove none was added. */
const prototypeKeys = () => Reflect.ownKeys(Object.prototype).map(String).sort();

describe('ids never index a plain object', () => {
  test('PATCH /_emulator/endpoints/__proto__ is a 404 and every later endpoint stays active', async () => {
    const before = prototypeKeys();
    const { call, emulator } = testEmulator();
    for (const body of [{ active: false }, { events: ['webhook.test'] }]) {
      const answer = await call('PATCH', '/_emulator/endpoints/__proto__', { body });
      expect(answer.status).toBe(404);
      expect(answer.body.error).toMatchObject({ code: 'not_found', details: { endpoint_id: '__proto__' } });
    }
    expect(prototypeKeys()).toEqual(before);
    expect(({} as Record<string, unknown>).active).toBeUndefined();
    const receiver = await startReceiver();
    receivers.push(receiver);
    const created = await call(
      'POST',
      `/_emulator/applications/${(await emulator.control.listApplications()).data[0]!.id}/endpoints`,
      {
        body: { url: receiver.url, events: ['message.status_updated'] },
      },
    );
    expect(created.status).toBe(201);
    expect(created.body.active).toBe(true);
    expect(created.body.events).toEqual(['message.status_updated']);
  });

  test('every id route answers 404 for reserved names, with no side effect', async () => {
    const before = prototypeKeys();
    const { call, emulator } = testEmulator();
    const deliveriesBefore = (await call('GET', '/_emulator/deliveries')).body.data.length;
    for (const id of RESERVED_IDS) {
      const routes: [string, string, unknown?][] = [
        ['POST', `/_emulator/applications/${id}/keys`, { scopes: ['messages.send'] }],
        [
          'POST',
          `/_emulator/applications/${id}/endpoints`,
          { url: 'http://127.0.0.1:9/x', events: ['webhook.test'] },
        ],
        ['POST', `/_emulator/applications/${id}/connections`, { phone_number: '+33612345678' }],
        ['PATCH', `/_emulator/endpoints/${id}`, { active: false }],
        ['DELETE', `/_emulator/endpoints/${id}`],
        ['POST', `/_emulator/endpoints/${id}/rotate-secret`],
        ['POST', `/_emulator/endpoints/${id}/test`],
        ['POST', `/_emulator/deliveries/${id}/replay`],
        ['POST', `/_emulator/connections/${id}/disconnect`],
        ['POST', `/_emulator/connections/${id}/inbound`, { from: '+33612345678', text: 'hi' }],
        ['GET', `/v1/messages/${id}`],
        ['GET', `/v1/connections/${id}/templates`],
      ];
      for (const [method, path, body] of routes) {
        const answer = await call(method, path, body === undefined ? {} : { body });
        expect.soft(answer.status, `${method} ${path}`).toBe(404);
        expect.soft(answer.body.error.code, `${method} ${path}`).toBe('not_found');
      }
    }
    expect(prototypeKeys()).toEqual(before);
    expect((await call('GET', '/_emulator/deliveries')).body.data.length).toBe(deliveriesBefore);
    expect((await emulator.control.listApplications()).data.length).toBe(1);
  });

  test('workspace_id "__proto__" creates no application (and so no agreement-free live key)', async () => {
    const { call, emulator } = testEmulator();
    for (const workspaceId of RESERVED_IDS) {
      const answer = await call('POST', '/_emulator/applications', {
        body: { name: 'x', environment: 'live', workspace_id: workspaceId },
      });
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
    expect((await emulator.control.listApplications()).data.length).toBe(1);
  });

  test('a JSON body with __proto__ members changes nothing shared', async () => {
    const before = prototypeKeys();
    const { call } = testEmulator();
    const answer = await call('POST', '/_emulator/workspaces', {
      raw: '{"name":"w","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.name).toBe('w');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(prototypeKeys()).toEqual(before);
  });
});
