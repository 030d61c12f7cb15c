import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { failingDisk } from '../_testing/failing-disk';
import { createAppWithKey, T0, templateSend, testEmulator, textSend } from '../_testing/test-emulator';
import { filePersistence } from './file-persistence';

// Removed after all: the emulators on them are closed after each test, by the shared helper.
const dirs: string[] = [];
const disks: ReturnType<typeof failingDisk>['state'][] = [];
afterEach(() => {
  // Room again before the shared helper closes the emulators (a close writes a last snapshot).
  for (const disk of disks.splice(0)) Object.assign(disk, { full: false, snapshotsFail: false });
  vi.restoreAllMocks();
});
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-disk-'));
  dirs.push(dir);
  return dir;
};

/** An emulator on `dir` whose disk writes the test controls. */
async function onFailingDisk(dir: string, maxFileBytes?: number) {
  const disk = failingDisk();
  const persistence = filePersistence({
    dataDir: dir,
    disk: disk.writes,
    ...(maxFileBytes === undefined ? {} : { maxFileBytes }),
  });
  const running = testEmulator({ dataDir: dir }, persistence);
  await running.emulator.ready;
  disks.push(disk.state);
  return { ...running, disk: disk.state };
}

/** What a restart on `dir` finds: the ids of the messages it loaded. */
async function messagesAfterRestart(dir: string): Promise<string[]> {
  const restarted = testEmulator({ dataDir: dir });
  await restarted.emulator.ready;
  return (await restarted.emulator.control.listMessages()).data.map((message) => message.id);
}

describe('a data dir that cannot be written (full disk)', () => {
  test('the send answers 500 internal_error, nothing stays in memory, and the retry with the same key is a new send', async () => {
    const dir = dataDir();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { emulator, send, call, disk } = await onFailingDisk(dir);
    disk.full = true;

    const refused = await send(templateSend(), { idempotencyKey: 'order-1042' });
    expect(refused.status).toBe(500);
    expect(refused.body.error).toMatchObject({ code: 'internal_error', request_id: expect.any(String) });
    expect(refused.body.error.message).toMatch(/could not write to its data dir .*ENOSPC/);
    expect(refused.body.error.message).not.toMatch(/\n\s+at /);
    expect((await emulator.control.listMessages()).data).toEqual([]);
    const [sandboxKey] = (await emulator.control.usage()).keys;
    expect(sandboxKey!.buckets.sends.used).toBe(0);
    expect(sandboxKey!.buckets.requests.used).toBe(0);
    expect((await call('GET', '/_emulator/health')).body).toEqual({
      ok: true,
      version: expect.any(String),
      counts: expect.any(Object),
      persistence: { ok: false, error: `cannot write to ${dir}: no space left on device (ENOSPC)` },
    });
    const lines = logged.mock.calls.map((args) => args.join(' '));
    expect(lines).toEqual([
      expect.stringContaining(`cannot write to ${dir}: no space left on device (ENOSPC)`),
    ]);

    disk.full = false;
    const retried = await send(templateSend(), { idempotencyKey: 'order-1042' });
    expect(retried.status).toBe(202);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect((await call('GET', `/v1/messages/${retried.body.id}`)).status).toBe(200);
    expect((await call('GET', '/_emulator/health')).body.persistence).toEqual({ ok: true });
    expect(logged.mock.calls.at(-1)?.join(' ')).toContain('persistence recovered');
    disk.snapshotsFail = true; // a kill before the next snapshot: only the journal holds the send
    expect(await messagesAfterRestart(dir)).toEqual([retried.body.id]);
  });

  test('short writes are completed before the 202: the message is there after a restart', async () => {
    const dir = dataDir();
    const { send, disk } = await onFailingDisk(dir);
    disk.bytesPerWrite = 7;
    disk.snapshotsFail = true;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const accepted = await send(templateSend());
    expect(accepted.status).toBe(202);
    expect(await messagesAfterRestart(dir)).toEqual([accepted.body.id]);
  });

  test('an append that stops half-way is cut back: the next accepted send is not swallowed with it', async () => {
    const dir = dataDir();
    const { send, disk } = await onFailingDisk(dir);
    disk.snapshotsFail = true;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    disk.fillHalfWay = true;
    expect((await send(templateSend())).status).toBe(500);
    disk.full = false;
    const accepted = await send(templateSend());
    expect(accepted.status).toBe(202);
    expect(await messagesAfterRestart(dir)).toEqual([accepted.body.id]);
  });

  test("a failed send's status event and its deliveries are not kept when they cannot be written", async () => {
    const { emulator, send, disk } = await onFailingDisk(dataDir());
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const [app] = (await emulator.control.listApplications()).data;
    await emulator.control.createEndpoint(app!.id, {
      url: 'http://127.0.0.1:9/hook',
      events: ['message.status_updated'],
    });
    disk.full = true;
    expect((await send(templateSend({ to: '+33612340000' }))).status).toBe(500);
    expect((await emulator.control.listDeliveries()).data).toEqual([]);
    expect((await emulator.control.listEvents()).data).toEqual([]);
  });

  test('live: a send that cannot be written takes nothing from the daily count', async () => {
    const { emulator, send, disk } = await onFailingDisk(dataDir());
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { app, key } = await createAppWithKey(emulator, 'live');
    const connection = await emulator.control.createConnection(app.id, { phone_number: '+14155550100' });
    const liveSend = {
      ...templateSend(),
      connection_id: connection.id,
      template: { name: 'hello_world', language: 'en', variables: [] },
    };
    disk.full = true;
    expect((await send(liveSend, { key })).status).toBe(500);
    const sendsToday = async () =>
      (await emulator.control.usage(app.id)).workspaces.find(
        (workspace) => workspace.workspace_id === app.workspace_id,
      )?.sends_today;
    expect(await sendsToday()).toBe(0);
    disk.full = false;
    expect((await send(liveSend, { key })).status).toBe(202);
    expect(await sendsToday()).toBe(1);
  });

  test('a status step that cannot be written is held, not announced, and announced once the disk has room', async () => {
    const { emulator, send, disk } = await onFailingDisk(dataDir());
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await send(templateSend());
    disk.full = true;
    await emulator.clock.advance(2_000);
    expect((await emulator.control.listEvents()).data).toEqual([]);
    disk.full = false;
    await emulator.clock.advance(1_000);
    expect((await emulator.control.listEvents()).data.map((event) => event.type)).toEqual([
      'message.status_updated',
    ]);
  });

  test('a snapshot that cannot be written keeps the previous one and every journal, and removes its temporary file', async () => {
    const dir = dataDir();
    const { emulator, send, call, disk } = await onFailingDisk(dir);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const accepted = await send(templateSend());
    const before = readFileSync(join(dir, 'state.json'), 'utf8');
    disk.snapshotsFail = true;

    const refused = await call('POST', '/_emulator/workspaces', { body: { name: 'Acme' } });
    expect(refused.status).toBe(500);
    expect(refused.body.error.message).toMatch(/data dir .*ENOSPC/);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(readFileSync(join(dir, 'state.json'), 'utf8')).toBe(before);
    expect((await call('GET', '/_emulator/health')).body.persistence).toMatchObject({ ok: false });
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('ENOSPC'));
    expect(await messagesAfterRestart(dir)).toEqual([accepted.body.id]);
    expect(emulator.clock.now()).toBe(T0);
  });

  test('an append whose cut back fails too leaves its torn bytes last in that journal: the next send goes to a new one, and a restart loads it', async () => {
    const dir = dataDir();
    const { send, disk } = await onFailingDisk(dir);
    disk.snapshotsFail = true;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const first = await send(templateSend());
    disk.cutsFail = true;
    disk.fillHalfWay = true;
    expect((await send(templateSend())).status).toBe(500);
    disk.full = false;
    const accepted = await send(templateSend());
    expect(accepted.status).toBe(202);
    const journals = readdirSync(dir).filter((name) => name.startsWith('journal-'));
    expect(journals).toEqual(['journal-2.ndjson', 'journal-3.ndjson']);
    expect(readFileSync(join(dir, 'journal-2.ndjson'), 'utf8')).not.toMatch(/\n$/);
    expect((await messagesAfterRestart(dir)).sort()).toEqual([first.body.id, accepted.body.id].sort());
  });

  test('no file grows past the limit the loader reads: a journal passes on to the next one, a larger line or snapshot is refused', async () => {
    const dir = dataDir();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { send, call, disk } = await onFailingDisk(dir, 2_000);
    disk.snapshotsFail = true;
    const accepted: string[] = [];
    for (let index = 0; index < 5; index++) accepted.push((await send(templateSend())).body.id);
    const journals = readdirSync(dir).filter((name) => name.startsWith('journal-'));
    expect(journals.length).toBeGreaterThan(1);
    for (const name of journals) expect(statSync(join(dir, name)).size).toBeLessThanOrEqual(2_000);

    const tooLong = await send(textSend({ text: 'x'.repeat(2_000) }));
    expect(tooLong.status).toBe(500);
    expect(tooLong.body.error.message).toMatch(/could not write to its data dir \(file too large, EFBIG\)/);
    expect(logged).toHaveBeenCalledWith(
      expect.stringContaining(`cannot write to ${dir}: file too large (EFBIG)`),
    );
    disk.snapshotsFail = false;
    expect((await call('POST', '/_emulator/workspaces', { body: { name: 'Acme' } })).status).toBe(500);
    expect((await call('GET', '/_emulator/health')).body.persistence).toEqual({
      ok: false,
      error: `cannot write to ${dir}: file too large (EFBIG)`,
    });
    // A snapshot too large to write leaves sends working: the journal holds them.
    const afterSnapshot = await send(templateSend());
    expect(afterSnapshot.status).toBe(202);
    accepted.push(afterSnapshot.body.id);
    expect((await messagesAfterRestart(dir)).sort()).toEqual(accepted.sort());
    // Back to a state whose snapshot fits, so the close after the test can write it.
    expect((await call('POST', '/_emulator/reset')).status).toBe(200);
  });
});
