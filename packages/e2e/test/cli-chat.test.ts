// `parley chat` as a process (issue 26): in a real pseudo-terminal (tmux) and as a script's pipe
// (--json), with a real app answering every message.received through the SDK.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmulatorServer, SANDBOX_ACTIVE_CONNECTION_ID, startEmulatorServer } from '@parley/emulator';
import { assertCliBuilt, CLI_PATH, cliEnv, runCli } from '@parley/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEchoApp } from './_echo-app';

const CUSTOMER = '+33611112222';

let socketDir = '';
let socket = '';
const tmux = (...args: string[]) =>
  execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

let server: EmulatorServer;
let echo: Awaited<ReturnType<typeof startEchoApp>>;
let child: ChildProcess | undefined;
const env = () => ({ PARLEY_API_KEY: server.sandboxKey, PARLEY_BASE_URL: server.baseUrl, NO_COLOR: '1' });

beforeAll(async () => {
  assertCliBuilt();
  socketDir = await mkdtemp(join(tmpdir(), 'parley-chat-tmux-'));
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  echo = await startEchoApp(server.baseUrl);
  const { application_id } = (await (
    await fetch(`${server.baseUrl}/status`, {
      headers: { authorization: `Bearer ${server.sandboxKey}` },
    })
  ).json()) as { application_id: string };
  const { secret } = await server.emulator.control.createEndpoint(application_id, {
    url: echo.url,
    events: ['message.received'],
  });
  echo.set(server.sandboxKey, secret);
});
afterAll(async () => {
  await echo?.close();
  await server?.close();
  await rm(socketDir, { recursive: true, force: true });
});
afterEach(() => {
  child?.kill();
  child = undefined;
  try {
    tmux('kill-server');
  } catch {
    // already gone (or never started)
  }
});

describe('parley chat (issue 26)', () => {
  it('without a terminal and without --from, it is a usage error (exit 2)', async () => {
    const result = await runCli(['chat', '--connection', SANDBOX_ACTIVE_CONNECTION_ID], env());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('missing --from');
  });

  it('in a terminal: "hi" typed as the customer, the app\'s reply printed, then its ticks as the clock moves; Ctrl-C exits 130', async () => {
    socket = join(socketDir, randomUUID().slice(0, 8));
    const variables = { ...cliEnv(env()), XDG_CONFIG_HOME: '/nonexistent', TERM: 'xterm-256color' };
    const command = [
      'env -i',
      ...Object.entries(variables).map(([name, value]) => quote(`${name}=${value}`)),
      quote(process.execPath),
      quote(CLI_PATH),
      ...['chat', '--connection', SANDBOX_ACTIVE_CONNECTION_ID, '--from', CUSTOMER].map(quote),
    ].join(' ');
    tmux('new-session', '-d', '-x', '120', '-y', '40', `${command}; echo "EXIT:$?"; sleep 120`);
    const screen = () => tmux('capture-pane', '-p', '-J');
    const waitForScreen = (text: string | RegExp) =>
      vi.waitFor(() => expect(screen()).toMatch(text), { timeout: 15_000, interval: 50 });
    await waitForScreen(`Chat as ${CUSTOMER} with Parley Sandbox (+15550100001)`);
    await waitForScreen(`${CUSTOMER}> `);
    const reply = echo.nextReply();
    tmux('send-keys', '-l', 'hi');
    tmux('send-keys', 'Enter');
    await reply;
    await waitForScreen(/\d\d:\d\d:\d\d {2}\+33611112222: hi/);
    await waitForScreen(/app: echo: hi {2}◷ queued/);
    // One status step per advance, so each is seen whatever the timing of the stream.
    await server.emulator.control.advanceClock(2_000);
    await waitForScreen(/app: echo: hi {2}✓ sent/);
    await server.emulator.control.advanceClock(3_000);
    await waitForScreen(/app: echo: hi {2}✓✓ delivered/);
    const received = echo.received.filter((event) => event.type === 'message.received');
    expect(received.at(-1)!.data).toMatchObject({ message: { from: CUSTOMER, text: 'hi' } });
    tmux('send-keys', 'C-c');
    await waitForScreen('EXIT:130');
  });

  it('--json from a pipe: each new or changed message is one JSON line; closing stdin ends it (exit 0)', async () => {
    const process_ = spawn(
      process.execPath,
      [CLI_PATH, 'chat', '--connection', SANDBOX_ACTIVE_CONNECTION_ID, '--from', '+33622223333', '--json'],
      { env: cliEnv(env()), stdio: ['pipe', 'pipe', 'pipe'] },
    );
    child = process_;
    let stdout = '';
    process_.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const exited = new Promise<number | null>((resolve) => process_.on('exit', resolve));
    const lines = () =>
      stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { kind: string; message: { text: string; status: string } });
    const reply = echo.nextReply();
    process_.stdin!.write('bonjour\n');
    await reply;
    await vi.waitFor(() => expect(lines().map((line) => line.message.text)).toContain('echo: bonjour'), {
      timeout: 15_000,
    });
    await server.emulator.control.advanceClock(2_000);
    await vi.waitFor(() => expect(lines().at(-1)?.message.status).toBe('sent'), { timeout: 15_000 });
    await server.emulator.control.advanceClock(3_000);
    await vi.waitFor(
      () =>
        expect(lines().map(({ kind, message }) => [kind, message.text, message.status])).toEqual([
          ['message', 'bonjour', 'received'],
          ['message', 'echo: bonjour', 'queued'],
          ['message', 'echo: bonjour', 'sent'],
          ['message', 'echo: bonjour', 'delivered'],
        ]),
      { timeout: 15_000 },
    );
    process_.stdin!.end();
    expect(await exited).toBe(0);
  });
});
