// The built `parley` as a real process against an emulator whose seeded live connection has more
// templates than one page holds: every command that reads templates reads every page.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { createControlClient } from '@parley/emulator/control';
import { assertCliBuilt, runCli } from '@parley/test-utils';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONNECTION_ID, LIVE_KEY, TEMPLATE_COUNT, templateSeed } from './_template-seed';

let server: EmulatorServer;
let configHome: string;
let env: Record<string, string>;

beforeAll(async () => {
  assertCliBuilt();
  server = await startEmulatorServer({ port: 0, clock: 'frozen', seed: templateSeed });
  configHome = await mkdtemp(join(tmpdir(), 'parley-cli-templates-'));
  env = { PARLEY_API_KEY: LIVE_KEY, PARLEY_BASE_URL: server.baseUrl, XDG_CONFIG_HOME: configHome };
});
afterAll(async () => {
  await server?.close();
  await rm(configHome, { recursive: true, force: true });
});
// The templates bucket allows 10 calls a minute and the frozen clock never ends a minute.
beforeEach(async () => {
  await createControlClient({ baseUrl: server.url }).reset();
});

describe(`a connection with ${TEMPLATE_COUNT} templates of its own`, () => {
  it('templates list shows every one of them, as JSON and as a table', async () => {
    const json = await runCli(['templates', 'list', '--connection', CONNECTION_ID, '--json'], env);
    expect(json.code).toBe(0);
    const names = JSON.parse(json.stdout).map((template: { name: string }) => template.name);
    expect(names).toHaveLength(TEMPLATE_COUNT + 2);
    expect(names.slice(0, 3)).toEqual(['hello_world', 'order_confirmation', 'template_1']);
    expect(names.at(-1)).toBe(`template_${TEMPLATE_COUNT}`);
    const table = await runCli(['templates', 'list', '--connection', CONNECTION_ID], env);
    expect(table.code).toBe(0);
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(1 + TEMPLATE_COUNT + 2);
    expect(table.stdout).toMatch(new RegExp(`^template_${TEMPLATE_COUNT}\\s+en\\s+UTILITY\\s+1\\s`, 'm'));
  });

  it(`send --template template_${TEMPLATE_COUNT} finds its language on the last page`, async () => {
    const result = await runCli(
      [
        'send',
        '--connection',
        CONNECTION_ID,
        '--to',
        '+33612345678',
        '--template',
        `template_${TEMPLATE_COUNT}`,
        '--var',
        'Ada',
        '--json',
      ],
      env,
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      object: 'message',
      status: 'queued',
      livemode: true,
      template: { name: `template_${TEMPLATE_COUNT}`, language: 'en' },
    });
  });
});
