import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type EmulatorProcess,
  freshBin,
  listAll,
  runEmulatorProcess,
  startEmulatorProcess,
} from './_emulator-process';
import { recordFigure } from './_figures';
import { recordingReceiver } from './_recording-receiver';
import { ACTIVE_CONNECTION } from './_request-arbitraries';

const json = { 'content-type': 'application/json' };
const parent = mkdtempSync(join(tmpdir(), 'parley-hardening-disk-'));
const disk = join(parent, 'disk');
const copy = join(parent, 'copy');
const running: EmulatorProcess[] = [];
let mountRefused: string | undefined;

// A real small filesystem: tmpfs answers ENOSPC (and short writes) exactly as a full disk does.
beforeAll(() => {
  mkdirSync(disk);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', disk], { stdio: 'pipe' });
  } catch (error) {
    mountRefused = String((error as { stderr?: Buffer }).stderr ?? error).trim();
  }
});
afterAll(async () => {
  for (const emulator of running) {
    emulator.child.kill('SIGKILL');
    await emulator.exited;
  }
  if (!mountRefused) execFileSync('umount', [disk]);
  rmSync(parent, { recursive: true, force: true });
});

async function start(dataDir: string): Promise<EmulatorProcess> {
  const started = await startEmulatorProcess([
    '--data-dir',
    dataDir,
    '--clock',
    'frozen',
    '--rate-limits',
    'off',
  ]);
  running.push(started);
  return started;
}

/** One send with its own Idempotency-Key; a quarter go to a `…0000` recipient (status event at once). */
async function send(emulator: EmulatorProcess, key: string, index: number) {
  const response = await fetch(`${emulator.base}/messages`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${emulator.key}`, 'idempotency-key': key },
    body: JSON.stringify({
      connection_id: ACTIVE_CONNECTION,
      to: index % 4 === 0 ? '+33612340000' : '+33612345678',
      type: 'text',
      // Long texts fill 2 MB in a few hundred sends.
      text: `n°${index} ${'x'.repeat(1_500)}`,
    }),
  });
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed'),
    body: await response.json(),
  };
}

describe('a data dir on a full filesystem', () => {
  test('sends until ENOSPC: every 202 survives a restart, reads go on, a refused send is never replayed', async (context) => {
    if (mountRefused) context.skip(`mount is not permitted here, so no small filesystem: ${mountRefused}`);
    const began = Date.now();
    await freshBin();
    const receiver = await recordingReceiver();
    const emulator = await start(disk);
    const [app] = (await (await fetch(`${emulator.control}/applications?limit=1`)).json()).data;
    await fetch(`${emulator.control}/applications/${app.id}/endpoints`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ url: receiver.url, events: ['message.status_updated'] }),
    });

    // Four senders at a time until 50 sends in a row were refused; the clock moves now and then
    // so status steps (journaled too) compete for the last bytes.
    const accepted = new Set<string>();
    const refusedKeys: string[] = [];
    let refusedInARow = 0;
    let attempts = 0;
    while (refusedInARow < 50 && attempts < 5_000) {
      const batch = await Promise.all(
        Array.from({ length: 4 }, () => {
          const index = attempts++;
          return send(emulator, `fill-${index}`, index).then((answer) => ({ answer, key: `fill-${index}` }));
        }),
      );
      for (const { answer, key } of batch) {
        if (answer.status === 202) {
          expect(answer.replayed).toBeNull();
          accepted.add(answer.body.id);
          refusedInARow = 0;
        } else {
          expect(answer.status).toBe(500);
          expect(answer.body.error.code).toBe('internal_error');
          expect(answer.body.error.message).toMatch(
            /could not write to its data dir \(no space left on device, ENOSPC\)/,
          );
          refusedKeys.push(key);
          refusedInARow++;
        }
      }
      if (attempts % 40 === 0) {
        await fetch(`${emulator.control}/clock/advance`, {
          method: 'POST',
          headers: json,
          body: '{"ms":2500}',
        });
      }
    }
    expect(refusedKeys.length).toBeGreaterThanOrEqual(50);
    expect(accepted.size).toBeGreaterThan(100);

    // Full: reads still answer, health says why, stderr said it once in one line.
    const someAccepted = [...accepted].slice(-20);
    for (const id of someAccepted) {
      const read = await fetch(`${emulator.base}/messages/${id}`, {
        headers: { authorization: `Bearer ${emulator.key}` },
      });
      expect(read.status).toBe(200);
    }
    const health = await (await fetch(`${emulator.control}/health`)).json();
    expect(health).toMatchObject({
      ok: true,
      persistence: { ok: false, error: expect.stringContaining('ENOSPC') },
    });
    const failureLines = emulator
      .stderr()
      .split('\n')
      .filter((line) => line.includes('persistence failed'));
    expect(failureLines.length).toBeGreaterThanOrEqual(1);
    expect(failureLines[0]).toContain(`cannot write to ${disk}: no space left on device (ENOSPC)`);
    expect(emulator.stderr()).not.toMatch(/\n\s+at /);
    // A refused send retried with its key while still full: refused again, never a replay.
    for (const key of refusedKeys.slice(0, 10)) {
      const retried = await send(emulator, key, 1);
      expect(retried.replayed).toBeNull();
      if (retried.status === 202) accepted.add(retried.body.id);
    }

    // A kill while full; the dir, copied to a filesystem with room, holds exactly what got a 202.
    emulator.child.kill('SIGKILL');
    await emulator.exited;
    cpSync(disk, copy, { recursive: true });
    const restarted = await start(copy);
    const stored = new Set((await listAll<{ id: string }>(restarted.control, '/messages')).map((m) => m.id));
    expect([...accepted].filter((id) => !stored.has(id))).toEqual([]);
    expect(stored.size).toBe(accepted.size);
    restarted.child.kill('SIGKILL');
    await restarted.exited;

    // Room again (a bigger mount): the same dir takes sends, and a refused key is a new send.
    execFileSync('mount', ['-o', 'remount,size=16m', disk]);
    const recovered = await start(disk);
    const retried = await send(recovered, refusedKeys[0]!, 1);
    expect(retried.status).toBe(202);
    expect(retried.replayed).toBeNull();
    expect((await send(recovered, 'after-room', 2)).status).toBe(202);
    expect((await (await fetch(`${recovered.control}/health`)).json()).persistence).toEqual({ ok: true });
    await receiver.close();

    const seconds = ((Date.now() - began) / 1000).toFixed(1);
    recordFigure({
      test: 'persistence: full disk',
      load: `${attempts} sends of ~1.5 KB, 4 at a time, into a --data-dir on a 2 MB tmpfs, until 50 in a row were refused`,
      proved:
        'no 202 for a message not written: the copy restarted elsewhere holds exactly the accepted messages; reads and health go on while full; a refused key is never replayed and becomes a new send once there is room',
      figures: `${accepted.size} accepted, ${refusedKeys.length} refused (500 ENOSPC), ${stored.size}/${accepted.size} present after SIGKILL + restart, 0 replays of refused keys; ${seconds} s`,
    });
  });

  test('a read-only data dir stops the bin at start: exit 2, the path and EROFS, no stack', async (context) => {
    if (mountRefused)
      context.skip(`mount is not permitted here, so no read-only filesystem: ${mountRefused}`);
    const readOnly = join(parent, 'read-only');
    mkdirSync(readOnly);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,ro', 'tmpfs', readOnly]);
    try {
      const { code, stderr } = await runEmulatorProcess(['--port', '0', '--data-dir', readOnly]);
      expect(code).toBe(2);
      expect(stderr.trim()).toBe(
        `parley-emulator: could not start: cannot write to ${readOnly}: read-only file system (EROFS)`,
      );
    } finally {
      execFileSync('umount', [readOnly]);
    }
  });
});
