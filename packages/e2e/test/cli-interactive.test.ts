// The interactive `parley send` in a real pseudo-terminal (tmux): arrow keys, typed answers,
// the confirmation, and the message that comes out.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmulatorServer, SANDBOX_ACTIVE_CONNECTION_ID, startEmulatorServer } from '@parley/emulator';
import { createControlClient } from '@parley/emulator/control';
import { assertCliBuilt, CLI_PATH } from '@parley/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// A fresh tmux server per test (reusing one right after kill-server races its shutdown), with its
// socket in a directory of this run that is removed at the end.
let socketDir = '';
let socket = '';
const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

let server: EmulatorServer;
beforeAll(async () => {
  assertCliBuilt();
  socketDir = await mkdtemp(join(tmpdir(), 'parley-tmux-'));
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
});
afterAll(async () => {
  await server?.close();
  await rm(socketDir, { recursive: true, force: true });
});
afterEach(() => {
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
});

/** Starts `parley …args` in a 120×40 tmux terminal; the pane stays after exit to show the code. */
function startInTerminal(args: string[]): void {
  socket = join(socketDir, randomUUID().slice(0, 8));
  const env = {
    PARLEY_API_KEY: server.sandboxKey,
    PARLEY_BASE_URL: server.baseUrl,
    XDG_CONFIG_HOME: '/nonexistent',
    NO_COLOR: '1',
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    TERM: 'xterm-256color',
  };
  const command = [
    'env -i',
    ...Object.entries(env).map(([name, value]) => quote(`${name}=${value}`)),
    quote(process.execPath),
    quote(CLI_PATH),
    ...args.map(quote),
  ].join(' ');
  tmux('new-session', '-d', '-x', '120', '-y', '40', `${command}; echo "EXIT:$?"; sleep 120`);
}

const screen = () => tmux('capture-pane', '-p', '-J');
const keys = (...sequence: string[]) => tmux('send-keys', ...sequence);
const waitForScreen = (text: string | RegExp) =>
  vi.waitFor(() => expect(screen()).toMatch(text), { timeout: 10_000, interval: 50 });

describe('interactive parley send (tmux)', () => {
  it('asks for connection, template, each variable, recipient, then confirms and sends', async () => {
    startInTerminal(['send']);
    await waitForScreen('Connection');
    // Only the active connection can be picked; the disconnected one is shown, disabled.
    expect(screen()).toMatch(/Parley Sandbox \(disconnected\).*\(disconnected\)/);
    keys('Enter');
    await waitForScreen('Template');
    expect(screen()).toContain('hello_world (en)');
    keys('Down', 'Enter');
    await waitForScreen(/\{\{1\}\} in ".*\{\{1\}\}.*\{\{2\}\}/);
    keys('-l', 'Ada');
    keys('Enter');
    await waitForScreen('{{2}} in');
    keys('-l', 'A-42');
    keys('Enter');
    await waitForScreen('To (international format');
    keys('-l', '+33612345678');
    keys('Enter');
    await waitForScreen(/Send order_confirmation \(fr\) to \+33612345678 from Parley Sandbox\?/);
    keys('Enter');
    await waitForScreen('EXIT:0');
    const output = screen();
    expect(output).toMatch(/Idempotency-Key: [0-9a-f-]{36}/);
    expect(output).toMatch(/Status\s+queued/);
    expect(output).toMatch(/Template\s+order_confirmation \(fr\)/);
    expect(output).toMatch(/To\s+\+33612345678/);
  });

  it('refuses a malformed number and sends nothing when the confirmation is declined (exit 130)', async () => {
    startInTerminal(['send', '--text', 'Bonjour']);
    await waitForScreen('Connection');
    keys('Enter');
    await waitForScreen('To (international format');
    keys('-l', '0612');
    keys('Enter');
    await waitForScreen('a + followed by 8 to 15 digits');
    keys('BSpace', 'BSpace', 'BSpace', 'BSpace');
    keys('-l', '+33612345678');
    keys('Enter');
    await waitForScreen('Send this text to +33612345678');
    keys('-l', 'n');
    keys('Enter');
    await waitForScreen('EXIT:130');
    expect(screen()).toContain('not sent: cancelled at the confirmation');
    const messages = await createControlClient({ baseUrl: server.url }).listMessages({ limit: 100 });
    expect(messages.data.filter((message) => message.text === 'Bonjour')).toHaveLength(0);
  });

  it('asks only for what the flags left out: the connection and the variables --var did not give', async () => {
    startInTerminal(['send', '--to', '+33612345678', '--template', 'order_confirmation', '--var', 'Ada']);
    await waitForScreen('Connection');
    keys('Enter');
    await waitForScreen('{{2}} in');
    expect(screen()).not.toContain('{{1}} in');
    expect(screen()).not.toContain('To (international format');
    keys('-l', 'A-42');
    keys('Enter');
    await waitForScreen('Send order_confirmation (fr) to +33612345678 from Parley Sandbox?');
    keys('Enter');
    await waitForScreen('EXIT:0');
    expect(screen()).toMatch(/Status\s+queued/);
  });

  it('offers a text message in the template list', async () => {
    startInTerminal(['send', '--to', '+33612345678']);
    await waitForScreen('Connection');
    keys('Enter');
    await waitForScreen('Text message…');
    keys('Up', 'Enter');
    await waitForScreen('? Text');
    keys('-l', 'Salut');
    keys('Enter');
    await waitForScreen('Send this text to +33612345678');
    keys('Enter');
    await waitForScreen('EXIT:0');
    expect(screen()).toMatch(/Text\s+Salut/);
  });

  it('asks nothing when the flags say everything (a template without variables)', async () => {
    startInTerminal([
      'send',
      '--connection',
      SANDBOX_ACTIVE_CONNECTION_ID,
      '--to',
      '+33612345678',
      '--template',
      'hello_world',
    ]);
    await waitForScreen('EXIT:0');
    expect(screen()).not.toMatch(/^[?✔] /m);
    expect(screen()).toMatch(/Template\s+hello_world \(en\)/);
  });

  it('never prompts with --no-input, even in a terminal (exit 2)', async () => {
    startInTerminal(['send', '--no-input']);
    await waitForScreen('EXIT:2');
    expect(screen()).toContain('missing --connection, --to, --template or --text');
  });
});
