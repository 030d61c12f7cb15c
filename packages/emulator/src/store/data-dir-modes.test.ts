import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { templateSend, testEmulator } from '../_testing/test-emulator';
import { createEmulator } from '../create-emulator';
import { DataDirError } from './data-dir-errors';

const parent = mkdtempSync(join(tmpdir(), 'parley-modes-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('the data dir holds webhook secrets in clear: owner only', () => {
  test('the dir (and missing parents) are created 0700, every file in it 0600', async () => {
    const dir = join(parent, 'nested', 'data');
    const { emulator, send } = testEmulator({ dataDir: dir });
    await emulator.ready;
    const [app] = (await emulator.control.listApplications()).data;
    await emulator.control.createEndpoint(app!.id, {
      url: 'http://127.0.0.1:9/hook',
      events: ['message.status_updated'],
    });
    expect((await send(templateSend())).status).toBe(202);
    await emulator.close();

    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(join(parent, 'nested'))).toBe(0o700);
    const files = readdirSync(dir);
    expect(files).toContain('state.json');
    expect(files.some((name) => name.startsWith('journal-'))).toBe(true);
    expect(Object.fromEntries(files.map((name) => [name, modeOf(join(dir, name))]))).toEqual(
      Object.fromEntries(files.map((name) => [name, 0o600])),
    );
  });

  test('a data dir under a regular file is refused at once, naming the file (ENOTDIR)', () => {
    const file = join(parent, 'not-a-dir');
    writeFileSync(file, '');
    const start = () => createEmulator({ dataDir: join(file, 'data') });
    expect(start).toThrow(DataDirError);
    expect(start).toThrow(`cannot write to ${join(file, 'data')}: ${file} is not a directory (ENOTDIR)`);
  });
});
