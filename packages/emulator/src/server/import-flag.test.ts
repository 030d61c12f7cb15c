import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEmulatorBin, startEmulatorBin, stopEmulatorBins } from '@parley/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { T0, testEmulator, textSend } from '../_testing/test-emulator';
import { createControlClient } from '../control-client/create-control-client';

// `parley-emulator --import FILE` as a process (the built bin: `pnpm --filter @parley/emulator build`).

afterEach(stopEmulatorBins);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function bundleFile(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-bundle-'));
  dirs.push(dir);
  const file = join(dir, 'bundle.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

/** What a state looks like from outside, but for real-time durations. */
async function view(control: ReturnType<typeof createControlClient>) {
  const text = JSON.stringify({
    clock: await control.getClock(),
    messages: (await control.listMessages({ limit: 100 })).data,
    events: (await control.listEvents({ limit: 100 })).data,
    usage: await control.usage(),
  });
  return JSON.parse(text.replace(/"duration_ms":[\d.]+/g, '"duration_ms":0'));
}

describe('parley-emulator --import FILE', () => {
  test('starts from the bundle: same answers, and the pending status steps fall due at the same times', async () => {
    const original = testEmulator();
    await original.send(textSend());
    await original.emulator.clock.advance(1_000);
    await original.send(textSend({ text: 'Deux' }));
    const bundle = await original.emulator.control.export();

    const { ready } = await startEmulatorBin(['--import', bundleFile(bundle)]);
    expect(ready).toMatchObject({ ready: true });
    const imported = createControlClient({ baseUrl: ready.base_url });
    const local = original.emulator.control as ReturnType<typeof createControlClient>;
    expect(await view(imported)).toEqual(await view(local));
    // The bundle's frozen clock is the bin's (no --clock given).
    expect(await imported.getClock()).toEqual({ mode: 'frozen', now: new Date(T0 + 1_000).toISOString() });

    for (const control of [imported, local]) await control.advanceClock(4_000);
    const after = [await view(imported), await view(local)];
    // New events have ids of their own on each side; their number, types and data agree.
    const shape = (state: { events: { id: string }[] }) => ({
      ...state,
      events: state.events.map(({ id: _id, ...event }) => event),
    });
    expect(shape(after[0])).toEqual(shape(after[1]));
    expect(after[0].messages.map((message: { status: string }) => message.status)).toEqual([
      'sent',
      'delivered',
    ]);
  });

  test('a bad bundle: exit 2 naming the path in the file; another version: exit 2 saying so', async () => {
    const original = testEmulator();
    for (let index = 0; index < 4; index++) await original.send(textSend({ text: `n°${index}` }));
    const bundle = await original.emulator.control.export();
    const wrong = structuredClone(bundle) as unknown as { messages: { message: { status: string } }[] };
    wrong.messages[3]!.message.status = 'lost';
    const file = bundleFile(wrong);
    const refused = await runEmulatorBin(['--port', '0', '--import', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(
      `parley-emulator: ${file}: The bundle is invalid at messages[3].message.status: expected one of queued, sent, delivered, read, failed, received.`,
    );

    const newer = await runEmulatorBin(['--port', '0', '--import', bundleFile({ ...bundle, version: 2 })]);
    expect(newer.code).toBe(2);
    expect(newer.stderr).toMatch(
      /This bundle is of version 2; this emulator \(.+\) reads version 1 bundles only/,
    );

    const notJson = await runEmulatorBin(['--port', '0', '--import', bundleFile('{"format":')]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/^parley-emulator: bundle file .+ is not valid JSON/);

    const missing = await runEmulatorBin(['--port', '0', '--import', join(tmpdir(), 'no-such-bundle.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read bundle file .+: ENOENT/);
  });
});
