import { SANDBOX_ACTIVE_CONNECTION_ID } from '@parley/emulator';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { emulatorContext } from '../_test/emulator-context';
import { getMessage } from '../commands/messages/index';
import { send } from '../commands/send/index';

// Generous on a loaded machine: these wait for real I/O, never for emulator time.
const PATIENCE = { timeout: 10_000, interval: 10 };
const TO = '+33612345678';

describe('following a message (send --wait, messages get --watch)', () => {
  const { emulator, context } = emulatorContext();
  afterAll(() => emulator.close());

  it('writes one progress line per status off a terminal, the last one final', async () => {
    const run = context();
    const sending = send(
      { connection: SANDBOX_ACTIVE_CONNECTION_ID, to: TO, text: 'lines', wait: true, interval: 5 },
      run,
    );
    await vi.waitFor(() => expect(run.stderr.text()).toMatch(/ queued \(/), PATIENCE);
    await emulator.clock.advance(2_000);
    await vi.waitFor(() => expect(run.stderr.text()).toContain('queued → sent'), PATIENCE);
    await emulator.clock.advance(3_000);
    const { id } = await sending;
    // The emulator's clock is frozen: said once, on a line of its own (issue 24).
    const frozen = `The emulator's clock is frozen, so message ${id} stays queued until it moves: run \`parley emulator clock advance 5s\` in another terminal, or send with --wait --advance to have it moved`;
    const lines = run.stderr
      .text()
      .trimEnd()
      .split('\n')
      .slice(1)
      .filter((line) => line !== frozen);
    expect(
      run.stderr
        .text()
        .split('\n')
        .filter((line) => line === frozen),
    ).toHaveLength(1);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^${id} queued \\(\\d+\\.\\d s\\)$`));
    expect(lines[1]).toMatch(new RegExp(`^${id} queued → sent \\(\\d+\\.\\d s\\)$`));
    expect(lines[2]).toMatch(new RegExp(`^${id} queued → sent → delivered \\(\\d+\\.\\d s\\)$`));
  });

  it('ends with exit 130 at once on Ctrl-C during a poll that does not answer', async () => {
    const sent = await send({ connection: SANDBOX_ACTIVE_CONNECTION_ID, to: TO, text: 'hang' }, context());
    const controller = new AbortController();
    const polls: Request[] = [];
    let reads = 0;
    // The first read (`messages get`) answers; every poll after it hangs until its request is
    // aborted, so only the signal can end the watch.
    const hanging = (request: Request) => {
      reads += 1;
      if (reads === 1) return emulator.fetch(request);
      polls.push(request);
      return new Promise<Response>((_, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
      });
    };
    const run = context({ signal: controller.signal, fetch: hanging });
    const watching = getMessage({ id: sent.id, watch: true, interval: 5 }, run).catch((error) => error);
    await vi.waitFor(() => expect(polls).toHaveLength(1), PATIENCE);
    expect(run.stderr.text()).toMatch(/ queued \(/);
    controller.abort();
    expect(await watching).toMatchObject({
      code: 130,
      message: `interrupted: message ${sent.id} is not affected; follow it with \`parley messages get ${sent.id} --watch\``,
    });
    expect(polls[0]?.signal.aborted).toBe(true);
  });
});
