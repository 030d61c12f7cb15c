import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { T0, templateSend, testEmulator } from '../_testing/test-emulator';

// Every emulator here is closed inside its test: the directory must outlive it.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-state-'));
  dirs.push(dir);
  return dir;
};

describe('file persistence (in process)', () => {
  test('a restart continues the clock and the status timers where they were, without repeating events', async () => {
    const dir = dataDir();
    const first = testEmulator({ dataDir: dir });
    const accepted = await first.send(templateSend());
    await first.emulator.clock.advance(3_000);
    expect((await first.emulator.control.listEvents()).data.map((event) => event.type)).toEqual([
      'message.status_updated',
    ]);
    await first.emulator.close();

    const second = testEmulator({ dataDir: dir });
    await second.emulator.ready;
    expect(second.emulator.clock.now()).toBe(T0 + 3_000);
    await second.emulator.clock.advance(2_000);
    const statuses = (await second.emulator.control.listEvents()).data.map(
      (event) => (event.data as { message: { status: string } }).message.status,
    );
    expect(statuses).toEqual(['delivered', 'sent']);
    expect((await second.call('GET', `/v1/messages/${accepted.body.id}`)).body.status).toBe('delivered');
    await second.emulator.close();
  });

  test('a torn last journal line (a kill mid-append) is ignored; the lines before it load', async () => {
    const dir = dataDir();
    const first = testEmulator({ dataDir: dir });
    await first.emulator.ready;
    const accepted = await first.send(templateSend());
    // Simulate a kill: no close (no final snapshot), then half a line at the end of the journal.
    const journal = readdirSync(dir).find((name) => name.startsWith('journal-'))!;
    appendFileSync(join(dir, journal), '[{"c":"messages","id":"x","v":{"mess');
    const second = testEmulator({ dataDir: dir });
    await second.emulator.ready;
    expect((await second.call('GET', `/v1/messages/${accepted.body.id}`)).status).toBe(200);
    await second.emulator.close();
    await first.emulator.close();
  });

  test('a snapshot is written atomically: no temporary file is left behind', async () => {
    const dir = dataDir();
    const { emulator } = testEmulator({ dataDir: dir });
    await emulator.control.createWorkspace({ name: 'Acme' });
    await emulator.close();
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(readdirSync(dir)).toContain('state.json');
  });
});
