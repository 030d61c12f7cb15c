// The first hour, round two (issue 24): what the built CLI says where it used to say too little
// or the wrong thing — a queued event nobody receives, a secret that is not a secret, a key named
// by the SDK's option.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { assertCliBuilt, runCli } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: EmulatorServer;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  assertCliBuilt();
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  env = {
    PARLEY_API_KEY: server.sandboxKey,
    PARLEY_BASE_URL: server.baseUrl,
    XDG_CONFIG_HOME: '/nonexistent-parley-e2e',
  };
  dir = await mkdtemp(join(tmpdir(), 'parley-first-hour-'));
  await writeFile(join(dir, 'body.json'), '{"id":"evt_0123456789abcdef0123456789abcdef"}');
  await writeFile(
    join(dir, 'headers.txt'),
    'parley-event-id: evt_1\nparley-timestamp: 1\nparley-signature: v1=00\n',
  );
});
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const SECRET_HINT =
  "pass the endpoint's signing secret, whsec_…, as the console or `parley listen --print-secret` shows it";

describe('the built CLI, in full sentences', () => {
  it('trigger with no endpoint: two punctuated sentences', async () => {
    const result = await runCli(['trigger', 'webhook.test'], { ...env, NO_COLOR: '1' });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Queued webhook\.test evt_[0-9a-f]{32}, but no endpoint subscribes to it\.\nRun `parley listen --forward-to <url>` in another terminal to receive it\.\n$/,
    );
  });

  it('webhooks verify and sign --secret nope: exit 2, it is not a whsec_ secret', async () => {
    const files = ['--headers', join(dir, 'headers.txt'), '--body', join(dir, 'body.json')];
    const verified = await runCli(['webhooks', 'verify', '--secret', 'nope', ...files], {});
    expect(verified).toMatchObject({ code: 2, stdout: '' });
    expect(verified.stderr).toBe(`Error: --secret is not a whsec_ secret: ${SECRET_HINT}\n`);
    const signed = await runCli(
      ['webhooks', 'sign', '--secret', 'nope', '--body', join(dir, 'body.json')],
      {},
    );
    expect(signed).toMatchObject({ code: 2, stdout: '' });
    expect(signed.stderr).toBe(`Error: --secret is not a whsec_ secret: ${SECRET_HINT}\n`);
    const fromEnv = await runCli(['webhooks', 'sign', '--body', join(dir, 'body.json')], {
      PARLEY_WEBHOOK_SECRET: 'nope',
    });
    expect(fromEnv.stderr).toBe(`Error: PARLEY_WEBHOOK_SECRET is not a whsec_ secret: ${SECRET_HINT}\n`);
  });

  it("help says logs tail prints the emulator's time, and shows send --advance", async () => {
    // Commander wraps the descriptions to the width: read them as one line.
    const tail = await runCli(['logs', 'tail', '--help'], {});
    expect(tail.stdout.replace(/\s+/g, ' ')).toContain("each at the emulator's time, UTC");
    const send = await runCli(['send', '--help'], {});
    expect(send.stdout.replace(/\s+/g, ' ')).toContain(
      "--advance with --wait, move the emulator's clock (a second at a time, up to --timeout) instead of waiting",
    );
    expect(send.stdout).toContain('--to +15550101002 --text hi --wait read --advance');
  });

  it("a malformed key is named by where it came from, not by the SDK's `apiKey`", async () => {
    const result = await runCli(['status'], { ...env, PARLEY_API_KEY: 'garbage' });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      'Error: the API key from PARLEY_API_KEY is not a Parley key: expected prl_sandbox_ or prl_live_ and 32 letters or digits\n',
    );
  });
});
