import type { ListEnvelope } from '@parley/sdk';
import { expect, test } from 'vitest';
import { testEmulator } from '../_testing/test-emulator';
import type { ControlPageQuery } from '../core/control-types';
import { createControlClient } from './create-control-client';
import { listAll } from './list-all';

test('listAll reads every page, 100 at a time, following each next_cursor until has_more is false', async () => {
  const asked: ControlPageQuery[] = [];
  const pages: ListEnvelope<number>[] = [
    { object: 'list', data: [1, 2], has_more: true, next_cursor: 'b' },
    { object: 'list', data: [3], has_more: true, next_cursor: 'c' },
    { object: 'list', data: [4], has_more: false, next_cursor: null },
  ];
  const read = async (page: ControlPageQuery) => {
    asked.push(page);
    return pages[asked.length - 1]!;
  };
  expect(await listAll(read)).toEqual([1, 2, 3, 4]);
  expect(asked).toEqual([{ limit: 100 }, { limit: 100, cursor: 'b' }, { limit: 100, cursor: 'c' }]);
});

test('listAll over HTTP: 205 faults in three pages, in order', async () => {
  const { emulator } = testEmulator();
  const control = createControlClient({ fetch: emulator.fetch });
  const created: string[] = [];
  for (let index = 0; index < 205; index++) {
    created.push(
      (await emulator.control.createFault({ path: `/v1/messages/${index}`, fault: { drop: true } })).id,
    );
  }
  const faults = await listAll((page) => control.listFaults(page));
  expect(faults.map((fault) => fault.id)).toEqual(created);
});

test('listAll gives up on a list that never ends', async () => {
  const endless = async (): Promise<ListEnvelope<number>> => ({
    object: 'list',
    data: [],
    has_more: true,
    next_cursor: 'again',
  });
  await expect(listAll(endless)).rejects.toThrow('listAll stopped after 10000 pages: the list did not end');
});
