// Following a message against the emulator (issue 24): where a sandbox message ends is its
// recipient's (the magic table, asked of the emulator), and a frozen clock is said at once, or
// moved with --advance.
import { SANDBOX_ACTIVE_CONNECTION_ID } from '@parley/emulator';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { emulatorContext } from '../_test/emulator-context';
import { getMessage } from '../commands/messages/index';
import { send } from '../commands/send/index';

// Generous on a loaded machine: these wait for real I/O, never for emulator time.
const PATIENCE = { timeout: 10_000, interval: 10 };
const TO = '+33612345678';
const READ = '+15550101002';
const STAYS_SENT = '+15550101001';
const text = (to: string, more: Record<string, unknown> = {}) => ({
  connection: SANDBOX_ACTIVE_CONNECTION_ID,
  to,
  text: 'hi',
  ...more,
});
const hint = (id: string, status: string, move: string, offersAdvance = true) =>
  `The emulator's clock is frozen, so message ${id} stays ${status} until it moves: run \`parley emulator clock advance ${move}\` in another terminal` +
  (offersAdvance ? ', or send with --wait --advance to have it moved' : '');

describe('a sandbox message ends where its recipient says', () => {
  const { emulator, context } = emulatorContext();
  afterAll(() => emulator.close());

  it('send --wait read to the magic recipient that is read: accepted, and it returns read', async () => {
    const run = context();
    const sending = send(text(READ, { wait: 'read', interval: 25 }), run);
    await vi.waitFor(() => expect(run.stderr.text()).toMatch(/ queued \(/), PATIENCE);
    await emulator.clock.advance(2_000);
    await vi.waitFor(() => expect(run.stderr.text()).toContain('queued → sent'), PATIENCE);
    await emulator.clock.advance(3_000);
    await vi.waitFor(() => expect(run.stderr.text()).toContain('queued → sent → delivered'), PATIENCE);
    await emulator.clock.advance(5_000);
    const message = await sending;
    expect(message.status).toBe('read');
    expect(run.stderr.text().trimEnd().split('\n').at(-1)).toMatch(
      new RegExp(`^${message.id} queued → sent → delivered → read \\(\\d+\\.\\d s\\)$`),
    );
  });

  it('send --wait read to any other sandbox recipient is still refused before the send', async () => {
    const before = (await (
      await emulator.fetch(new Request('http://127.0.0.1:4010/_emulator/health'))
    ).json()) as {
      counts: { messages: number };
    };
    await expect(send(text(TO, { wait: 'read' }), context())).rejects.toMatchObject({
      code: 2,
      message:
        'sandbox messages stop at delivered and are never read, so --wait read would only time out: use --wait delivered',
    });
    const after = (await (
      await emulator.fetch(new Request('http://127.0.0.1:4010/_emulator/health'))
    ).json()) as {
      counts: { messages: number };
    };
    expect(after.counts.messages).toBe(before.counts.messages);
  });

  it('messages get --watch of a delivered message to the read recipient follows it to read', async () => {
    const sent = await send(text(READ), context());
    await emulator.clock.advance(5_000);
    const run = context();
    const watching = getMessage({ id: sent.id, watch: true, interval: 25 }, run);
    await vi.waitFor(() => expect(run.stderr.text()).toMatch(/ delivered \(/), PATIENCE);
    await emulator.clock.advance(5_000);
    expect((await watching).status).toBe('read');
  });

  it('the recipient that stays sent: --wait delivered ends at once (exit 2), --watch stops at sent', async () => {
    const refusal = await send(text(STAYS_SENT, { wait: true }), context()).catch((error) => error);
    expect(refusal).toMatchObject({ code: 2 });
    const id = /message ([0-9a-f-]{36}) stays sent/.exec(refusal.message)?.[1];
    expect(refusal.message).toBe(
      `message ${id} stays sent: ${STAYS_SENT} is the emulator's recipient that is never delivered (\`parley emulator magic-numbers\`); follow it with \`parley messages get ${id} --watch\` (or use --wait sent)`,
    );
    const run = context();
    const watching = getMessage({ id: id!, watch: true, interval: 25 }, run);
    await vi.waitFor(() => expect(run.stderr.text()).toMatch(/ queued \(/), PATIENCE);
    await emulator.clock.advance(2_000);
    expect((await watching).status).toBe('sent');
  });
});

describe('a frozen clock is said at once, with the command that moves it', () => {
  const { emulator, context } = emulatorContext();
  afterAll(() => emulator.close());

  it('send --wait: the hint comes before any poll could see a change, and the timeout repeats it', async () => {
    const run = context();
    const sending = send(text(TO, { wait: true, interval: 50, timeout: 0.2 }), run).catch((error) => error);
    await vi.waitFor(() => expect(run.stderr.text()).toContain('frozen'), PATIENCE);
    const id = /([0-9a-f-]{36}) queued/.exec(run.stderr.text())![1]!;
    expect(run.stderr.text().split('\n')).toContain(hint(id, 'queued', '5s'));
    const failure = await sending;
    expect(failure).toMatchObject({ code: 1 });
    expect(failure.message).toBe(
      `message ${id} is still queued after 0.2 s: check later with \`parley messages get ${id} --watch\` (${hint(id, 'queued', '5s').replace('The', 'the')})`,
    );
  });

  it('messages get --watch: the move left for the message, without offering --advance', async () => {
    const sent = await send(text(TO), context());
    await emulator.clock.advance(3_000);
    const run = context();
    const watching = getMessage({ id: sent.id, watch: true, interval: 50, timeout: 0.2 }, run).catch(
      (error) => error,
    );
    await vi.waitFor(() => expect(run.stderr.text()).toContain('frozen'), PATIENCE);
    expect(run.stderr.text().split('\n')).toContain(hint(sent.id, 'sent', '2s', false));
    expect(await watching).toMatchObject({ code: 1 });
  });

  it('a real clock gets no hint', async () => {
    const real = emulatorContext({ clock: 'real' });
    const run = real.context();
    const failure = await send(text(TO, { wait: true, interval: 50, timeout: 0.2 }), run).catch(
      (error) => error,
    );
    expect(failure).toMatchObject({ code: 1 });
    expect(failure.message).toMatch(/still queued after 0\.2 s: check later with `[^`]+`$/);
    expect(run.stderr.text()).not.toContain('frozen');
    await real.emulator.close();
  });
});

describe('send --wait --advance moves the clock itself', () => {
  const { emulator, context } = emulatorContext();
  afterAll(() => emulator.close());

  it('to delivered: 5 s moved, one status per step, nothing moved by the test', async () => {
    const before = emulator.clock.now();
    const run = context();
    const message = await send(text(TO, { wait: true, advance: true }), run);
    expect(message.status).toBe('delivered');
    expect(emulator.clock.now() - before).toBe(5_000);
    const lines = run.stderr.text().trimEnd().split('\n');
    expect(lines.at(-2)).toMatch(new RegExp(`^${message.id} queued → sent → delivered \\(\\d+\\.\\d s\\)$`));
    expect(lines.at(-1)).toBe("Moved the emulator's clock 5 s");
    expect(run.stderr.text()).not.toContain('frozen');
  });

  it('to read, for the recipient that is read: 10 s', async () => {
    const before = emulator.clock.now();
    const message = await send(text(READ, { wait: 'read', advance: true }), context());
    expect(message.status).toBe('read');
    expect(emulator.clock.now() - before).toBe(10_000);
  });

  it('--timeout is how far it moves the clock: 3 s, then exit 1 saying so', async () => {
    const before = emulator.clock.now();
    const failure = await send(text(TO, { wait: true, advance: true, timeout: 3 }), context()).catch(
      (error) => error,
    );
    expect(emulator.clock.now() - before).toBe(3_000);
    expect(failure).toMatchObject({ code: 1 });
    expect(failure.message).toMatch(
      /^message [0-9a-f-]{36} is still sent after moving the emulator's clock 3 s: check later with `parley messages get [0-9a-f-]{36} --watch` \(--timeout is how far --advance moves it\)$/,
    );
  });

  it('a failing recipient ends it with exit 1 and the message error', async () => {
    const failure = await send(text('+15550101004', { wait: true, advance: true }), context()).catch(
      (error) => error,
    );
    expect(failure).toMatchObject({
      code: 1,
      message: expect.stringContaining('failed: message_undeliverable'),
    });
  });

  it('without --wait, or against a server that is no emulator: exit 2, nothing sent', async () => {
    await expect(send(text(TO, { advance: true }), context())).rejects.toMatchObject({
      code: 2,
      message: "--advance moves the emulator's clock while --wait follows the message: add --wait",
    });
    const calls: string[] = [];
    const notAnEmulator = context({
      fetch: async (request) => {
        calls.push(`${request.method} ${new URL(request.url).pathname}`);
        return new URL(request.url).pathname.startsWith('/_emulator/')
          ? Response.json({ error: { code: 'not_found', message: 'No route.' } }, { status: 404 })
          : emulator.fetch(request);
      },
    });
    await expect(send(text(TO, { wait: true, advance: true }), notAnEmulator)).rejects.toMatchObject({
      code: 2,
      message:
        "--advance moves the emulator's clock, and http://127.0.0.1:4010 is not an emulator (it has no GET /_emulator/clock): use --wait alone",
    });
    expect(calls).toEqual(['GET /_emulator/clock']);
  });
});

describe('a workspace with a clock of its own', () => {
  const { emulator, context } = emulatorContext();
  afterAll(() => emulator.close());
  const control = async (path: string, body: unknown) => {
    const response = await emulator.fetch(
      new Request(`http://127.0.0.1:4010/_emulator/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    return (await response.json()) as Record<string, string>;
  };

  it('is the clock said frozen and moved: --workspace in the hint, --advance moves it alone', async () => {
    const workspace = await control('workspaces', { name: 'own', clock: 'frozen' });
    const application = await control('applications', {
      name: 'app',
      environment: 'sandbox',
      workspace_id: workspace.id,
    });
    const { key } = await control(`applications/${application.id}/keys`, {});
    const run = context({
      env: {
        PARLEY_API_KEY: key,
        PARLEY_BASE_URL: 'http://127.0.0.1:4010/v1',
        XDG_CONFIG_HOME: '/nonexistent',
      },
    });
    const waiting = send(text(TO, { wait: true, interval: 50, timeout: 0.2 }), run).catch((error) => error);
    await vi.waitFor(() => expect(run.stderr.text()).toContain('frozen'), PATIENCE);
    const id = /([0-9a-f-]{36}) queued/.exec(run.stderr.text())![1]!;
    expect(run.stderr.text().split('\n')).toContain(hint(id, 'queued', `5s --workspace ${workspace.id}`));
    await waiting;

    const globalBefore = emulator.clock.now();
    const ownBefore = emulator.workspaceClock(workspace.id!).now();
    const advanced = context({
      env: {
        PARLEY_API_KEY: key,
        PARLEY_BASE_URL: 'http://127.0.0.1:4010/v1',
        XDG_CONFIG_HOME: '/nonexistent',
      },
    });
    expect((await send(text(TO, { wait: true, advance: true }), advanced)).status).toBe('delivered');
    expect(emulator.workspaceClock(workspace.id!).now() - ownBefore).toBe(5_000);
    expect(emulator.clock.now()).toBe(globalBefore);
  });
});
