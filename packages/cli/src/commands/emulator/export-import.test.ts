import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createEmulator,
  type EmulatorServer,
  SANDBOX_ACTIVE_CONNECTION_ID,
  startEmulatorServer,
} from '@parley/emulator';
import { runCli } from '@parley/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emulatorContext } from '../../_test/emulator-context';
import { send } from '../send/index';
import { exportEmulator } from './export';
import { emulatorHar } from './har';
import { importEmulator } from './import';

const dirs: string[] = [];
const tempFile = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-cli-bundle-'));
  dirs.push(dir);
  return join(dir, name);
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const T0 = Date.parse('2026-10-14T09:30:15Z');

describe('parley emulator export, import, har (in process)', () => {
  const source = emulatorContext({ now: T0 });
  const target = emulatorContext({ now: T0 + 86_400_000 });
  afterAll(async () => {
    await source.emulator.close();
    await target.emulator.close();
  });

  it('export --out writes a 0600 bundle that import makes the state of another emulator', async () => {
    const message = await send(
      { connection: SANDBOX_ACTIVE_CONNECTION_ID, to: '+33612345678', text: 'x' },
      source.context(),
    );
    const file = tempFile('bundle.json');
    const exported = await exportEmulator({ out: file }, source.context());
    expect(exported.file).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(exported.bundle);

    const imported = await importEmulator({ file }, target.context());
    expect(imported).toMatchObject({
      ok: true,
      file,
      counts: { messages: 1 },
      clock: { now: new Date(T0).toISOString() },
    });
    const read = await target.emulator.fetch(
      new Request(`http://127.0.0.1:4010/v1/messages/${message.id}`, {
        headers: { authorization: `Bearer ${target.emulator.sandboxKey}` },
      }),
    );
    expect(read.status).toBe(200);
    expect(((await read.json()) as { status: string }).status).toBe('queued');

    const har = await emulatorHar({}, target.context());
    expect(har.file).toBeNull();
    expect(har.har.log.entries.map((entry) => entry.request.method)).toEqual(['GET']);
  });

  it('a bundle the emulator refuses is exit 2 naming the file and the path in it; the state stays', async () => {
    const good = (await exportEmulator({}, source.context())).bundle;
    const file = tempFile('bad.json');
    writeFileSync(file, JSON.stringify({ ...good, messages: [{ ...good.messages[0], announced: -1 }] }));
    const refused = await importEmulator({ file }, target.context()).catch((error) => error);
    expect(refused).toMatchObject({
      code: 2,
      message: `${file}: The bundle is invalid at messages[0].announced: expected a whole number from 0.`,
    });
    expect(refused.body.error.details).toEqual({
      field: 'messages[0].announced',
      reason: 'expected a whole number from 0',
    });
    expect((await target.emulator.control.listMessages()).data).toHaveLength(1);
    const notJson = tempFile('not.json');
    writeFileSync(notJson, 'nope');
    expect(await importEmulator({ file: notJson }, target.context()).catch((error) => error.code)).toBe(2);
    expect(
      await importEmulator({ file: tempFile('missing.json') }, target.context()).catch(
        (error) => error.message,
      ),
    ).toMatch(/^cannot read .+missing\.json: ENOENT$/);
    expect(await exportEmulator({ workspace: 'nope' }, source.context()).catch((error) => error.code)).toBe(
      2,
    );
  });
});

// The built CLI against real sockets: `pnpm --filter @parley/cli build` first.
describe('parley emulator export | import | har as processes', () => {
  let first: EmulatorServer;
  let second: EmulatorServer;
  beforeAll(async () => {
    first = await startEmulatorServer({ port: 0, clock: 'frozen', now: T0, retrySchedule: 'fast' });
    second = await startEmulatorServer({ port: 0, clock: 'real' });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it('export from one emulator, import into another: the same answers, and pending steps at the same times', async () => {
    const key = first.sandboxKey;
    const sent = await fetch(`${first.baseUrl}/messages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': 'cli-1',
      },
      body: JSON.stringify({
        connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
        to: '+33612345678',
        type: 'text',
        text: 'Bonjour',
      }),
    });
    const message = (await sent.json()) as { id: string };
    const file = tempFile('bundle.json');
    const exported = await runCli(['emulator', 'export', '--out', file, '--base-url', first.baseUrl], {});
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(
      /^Exported 1 workspace\(s\), 1 application\(s\), 1 message\(s\), 0 deliveries and 1 pending job\(s\) at 2026-10-14T09:30:15.000Z, without signing secrets, to /,
    );

    const imported = await runCli(['emulator', 'import', file, '--base-url', second.baseUrl, '--json'], {});
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ ok: true, counts: { messages: 1, pending_jobs: 1 } });
    // The second runs a real clock: it continues from the bundle's time, so the step 2 s after
    // acceptance is due 2 s of real time later; a frozen copy of the same bundle shows it exactly.
    const copy = createEmulator({ import: JSON.parse(readFileSync(file, 'utf8')) });
    await copy.clock.advance(0);
    for (const emulator of [copy]) {
      const status = async () =>
        (
          (await (
            await emulator.fetch(
              new Request(`http://127.0.0.1:4010/v1/messages/${message.id}`, {
                headers: { authorization: `Bearer ${key}` },
              }),
            )
          ).json()) as { status: string }
        ).status;
      expect(await status()).toBe('queued');
      await emulator.clock.advance(1_999);
      expect(await status()).toBe('queued');
      await emulator.clock.advance(1);
      expect(await status()).toBe('sent');
    }
    await copy.close();
    const onSecond = await fetch(`${second.baseUrl}/messages/${message.id}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(onSecond.status).toBe(200);

    const harFile = tempFile('traffic.har');
    const har = await runCli(['emulator', 'har', '--out', harFile, '--base-url', first.baseUrl], {});
    expect(har.code).toBe(0);
    expect(har.stdout.trim()).toBe(`Wrote 1 request(s) as HAR 1.2 to ${harFile}`);
    const log = JSON.parse(readFileSync(harFile, 'utf8')) as {
      log: { entries: { request: { headers: { name: string; value: string }[] } }[] };
    };
    expect(log.log.entries[0]!.request.headers).toContainEqual({
      name: 'authorization',
      value: `Bearer ${key.slice(0, 16)}…`,
    });
  });

  it('a bad bundle as a process: exit 2, the path on stderr', async () => {
    const file = tempFile('bad.json');
    writeFileSync(file, JSON.stringify({ format: 'parley-emulator-bundle', version: 7 }));
    const refused = await runCli(['emulator', 'import', file, '--base-url', second.baseUrl], {});
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${file}: This bundle is of version 7; this emulator`);
  });
});
