import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createEmulator, type Emulator } from '../create-emulator';

let emulator: Emulator;

beforeAll(async () => {
  emulator = createEmulator({ clock: 'frozen', now: Date.parse('2026-10-14T09:30:15Z') });
  // Two answered /v1 requests: one without a key (401), one with the seed key to an unknown route (404).
  await emulator.fetch(new Request('http://127.0.0.1/v1/connections'));
  await emulator.fetch(
    new Request('http://127.0.0.1/v1/nothing-here', {
      headers: { authorization: `Bearer ${emulator.sandboxKey}` },
    }),
  );
});

afterAll(() => emulator.close());

describe('control.listActivity in process', () => {
  test('filters by status class and exact status; an empty filter matches nothing, as the query parameter does', async () => {
    const statuses = async (status: string) =>
      (await emulator.control.listActivity({ type: 'request', status })).data.map(
        (item) => item.kind === 'request' && item.status,
      );
    expect(await statuses('4xx')).toEqual([404, 401]);
    expect(await statuses('401')).toEqual([401]);
    expect(await statuses('5xx')).toEqual([]);
    expect((await emulator.control.listActivity({ type: '' })).data).toEqual([]);
  });

  test('pages newest first: at the limit has_more, one past it the rest', async () => {
    const first = await emulator.control.listActivity({ type: 'request', limit: 1 });
    expect(first.data.map((item) => item.kind === 'request' && item.path)).toEqual(['/v1/nothing-here']);
    expect(first.has_more).toBe(true);
    const rest = await emulator.control.listActivity({
      type: 'request',
      limit: 1,
      cursor: first.next_cursor!,
    });
    expect(rest).toMatchObject({ has_more: false, next_cursor: null });
    expect(rest.data.map((item) => item.kind === 'request' && item.path)).toEqual(['/v1/connections']);
    expect((await emulator.control.listActivity({ type: 'request', limit: 2 })).has_more).toBe(false);
  });

  test('a filter or cursor that is no string is refused naming it (no query parameter can be one)', async () => {
    await expect(emulator.control.listActivity({ type: 5 as unknown as string })).rejects.toMatchObject({
      status: 400,
      code: 'validation_error',
      details: { field: 'type', reason: 'invalid_type' },
    });
    await expect(
      emulator.control.listActivity({ applicationId: ['a'] as unknown as string }),
    ).rejects.toMatchObject({ status: 400, details: { field: 'application_id', reason: 'invalid_type' } });
    await expect(emulator.control.listActivity({ cursor: 7 as unknown as string })).rejects.toMatchObject({
      status: 400,
      details: { field: 'cursor', reason: 'invalid_value' },
    });
  });
});
