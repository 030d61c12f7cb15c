import { describe, expect, test } from 'vitest';
import { createAppWithKey, testEmulator } from '../_testing/test-emulator';
import { SANDBOX_ACTIVE_CONNECTION_ID, SANDBOX_DISCONNECTED_CONNECTION_ID } from '../domain/sandbox-fixtures';

describe('GET /v1/connections (spec 4.2, 4.7)', () => {
  test('the sandbox has two fixed connections in the list envelope, first active, second disconnected', async () => {
    const { call } = testEmulator();
    const answer = await call('GET', '/v1/connections');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(answer.body.data).toEqual([
      {
        object: 'connection',
        id: SANDBOX_ACTIVE_CONNECTION_ID,
        status: 'active',
        phone_number: expect.stringMatching(/^\+\d{8,15}$/),
        name: expect.any(String),
        quality_rating: 'GREEN',
        waba_id: expect.any(String),
        livemode: false,
        created_at: expect.any(String),
      },
      expect.objectContaining({
        id: SANDBOX_DISCONNECTED_CONNECTION_ID,
        status: 'disconnected',
        quality_rating: 'GREEN',
      }),
    ]);
    expect(answer.body.data[0].waba_id).toBe(answer.body.data[1].waba_id);
  });

  test('every sandbox application sees the same two UUIDs', async () => {
    const { call, emulator } = testEmulator();
    const { key } = await createAppWithKey(emulator, 'sandbox');
    const mine = await call('GET', '/v1/connections');
    const theirs = await call('GET', '/v1/connections', { key });
    expect(theirs.body.data.map((c: { id: string }) => c.id)).toEqual(
      mine.body.data.map((c: { id: string }) => c.id),
    );
  });

  test('limit and cursor page through the list; a bad limit or cursor is a validation error', async () => {
    const { call } = testEmulator();
    const first = await call('GET', '/v1/connections?limit=1');
    expect(first.body.data).toHaveLength(1);
    expect(first.body.has_more).toBe(true);
    const second = await call('GET', `/v1/connections?limit=1&cursor=${first.body.next_cursor}`);
    expect(second.body.data[0].id).toBe(SANDBOX_DISCONNECTED_CONNECTION_ID);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'cursor=bogus']) {
      const answer = await call('GET', `/v1/connections?${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('validation_error');
    }
  });

  test('a live application lists its own simulated connections', async () => {
    const { call, emulator } = testEmulator();
    const { app, key } = await createAppWithKey(emulator, 'live');
    expect((await call('GET', '/v1/connections', { key })).body.data).toEqual([]);
    const connection = await emulator.control.createConnection(app.id, {
      phone_number: '+14155550100',
      name: 'Zeta Café',
    });
    const answer = await call('GET', '/v1/connections', { key });
    expect(answer.body.data).toEqual([{ ...connection, livemode: true }]);
  });
});

describe('GET /v1/connections/{id}/templates (spec 4.3, 4.7)', () => {
  test.each([SANDBOX_ACTIVE_CONNECTION_ID, SANDBOX_DISCONNECTED_CONNECTION_ID])(
    'connection %s has hello_world (en, 0) and order_confirmation (fr, 2)',
    async (id) => {
      const { call } = testEmulator();
      const answer = await call('GET', `/v1/connections/${id}/templates`);
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual([
        {
          object: 'template',
          connection_id: id,
          name: 'hello_world',
          language: 'en',
          category: 'UTILITY',
          variable_count: 0,
          body: expect.stringMatching(/^[^{}]+$/),
        },
        {
          object: 'template',
          connection_id: id,
          name: 'order_confirmation',
          language: 'fr',
          category: 'UTILITY',
          variable_count: 2,
          body: expect.stringMatching(/\{\{1\}\}.*\{\{2\}\}/),
        },
      ]);
    },
  );

  test('an unknown connection: 404 not_found', async () => {
    const { call } = testEmulator();
    const answer = await call('GET', '/v1/connections/0b7d7c1e-5f0e-4f5b-a1c2-9e8d7c6b5a49/templates');
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('not_found');
  });
});
