import { describe, expect, it } from 'vitest';
import { queueByKey } from './_queue-by-key';

/** Resolves once every pending microtask ran (no I/O is involved here, so nothing else can). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('queueByKey', () => {
  it('runs tasks of one key one at a time in arrival order, other keys beside them', async () => {
    const run = queueByKey();
    const log: string[] = [];
    const first = gate();
    const a1 = run('a', async () => {
      log.push('a1 start');
      await first.opened;
      log.push('a1 end');
      return 1;
    });
    const a2 = run('a', async () => {
      log.push('a2');
      return 2;
    });
    const b1 = run('b', async () => {
      log.push('b1');
      return 3;
    });
    await settled();
    expect(log).toEqual(['a1 start', 'b1']);
    first.open();
    expect(await Promise.all([a1, a2, b1])).toEqual([1, 2, 3]);
    expect(log).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
  });

  it('goes on after a task that rejects, and passes the rejection to its caller only', async () => {
    const run = queueByKey();
    const failure = new Error('boom');
    const failed = run('a', async () => {
      throw failure;
    });
    const next = run('a', async () => 'next');
    await expect(failed).rejects.toBe(failure);
    expect(await next).toBe('next');
  });

  it('a task that arrives while the second of a key runs still waits for it: the first task cleaning up keeps the newer tail', async () => {
    const run = queueByKey();
    const log: string[] = [];
    const first = gate();
    const second = gate();
    const a1 = run('a', async () => {
      await first.opened;
      log.push('a1');
    });
    const a2 = run('a', async () => {
      log.push('a2 start');
      await second.opened;
      log.push('a2 end');
    });
    first.open();
    await settled();
    expect(log).toEqual(['a1', 'a2 start']);
    const a3 = run('a', async () => {
      log.push('a3');
    });
    await settled();
    expect(log).toEqual(['a1', 'a2 start']);
    second.open();
    await Promise.all([a1, a2, a3]);
    expect(log).toEqual(['a1', 'a2 start', 'a2 end', 'a3']);
  });

  it('a key whose work is done starts the next task at once', async () => {
    const run = queueByKey();
    expect(await run('a', async () => 1)).toBe(1);
    await settled();
    const log: string[] = [];
    const next = run('a', async () => {
      log.push('ran');
    });
    await settled();
    expect(log).toEqual(['ran']);
    await next;
  });
});
