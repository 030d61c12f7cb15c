import {
  isAPIUserAbortError,
  isMessageFailedError,
  isWaitForTimeoutError,
  type Message,
  type MessageStatus,
  type WaitForStatus,
} from '@parley/sdk';
import type { CommandContext } from '../context';
import { EXIT, ExitError, usageError } from '../exit-error';
import { createProgressLine } from '../output/progress-line';
import { colorStatus } from '../output/status-color';
import { terminalSafe } from '../output/terminal-safe';
import type { ApiSession } from './api-session';
import { type EmulatorTarget, probeEmulator } from './emulator-probe';

/** Statuses a message can be followed to, in lifecycle order. */
export const FOLLOW_STATUSES = ['sent', 'delivered', 'read'] as const;

const ORDER: Record<MessageStatus, number> = {
  queued: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  received: 3,
  failed: 9,
};

/** How to follow a message. */
export interface FollowOptions {
  /** Stop once the message has this status or a later one; `final` stops at the end of its lifecycle. */
  until: (typeof FOLLOW_STATUSES)[number] | 'final';
  /** Real time to wait; with `advance`, the most emulator time to move the clock by. */
  timeoutMs: number;
  intervalMs: number;
  /** Move the emulator's clock until the message gets there (`send --advance`), instead of waiting. */
  advance?: boolean;
  /** The emulator behind the base URL when the caller probed it already; null when there is none. */
  emulator?: EmulatorTarget | null;
  /** The command has `--advance`: a frozen clock's hint offers it. */
  offersAdvance?: boolean;
}

// What --advance moves the clock by between two reads: every status step of a sandbox message
// falls on a whole second of its age, so none is skipped and the trail shows each one.
const ADVANCE_STEP_MS = 1_000;
// The age at which a sandbox message reaches each status (spec 8's sandbox timing; read only for
// the emulator's magic recipient that is read, at 10 s): what a frozen clock's hint moves it by.
const STEP_AGE_MS: Record<WaitForStatus, number> = { queued: 0, sent: 2_000, delivered: 5_000, read: 10_000 };

/**
 * Follows a message with the SDK's `messages.waitFor` and keeps a live progress line
 * (`queued → sent → delivered`) until it reaches `until`. A failed message is exit 1 with its
 * error; running out of time is exit 1 too; Ctrl-C (the context's signal) is exit 130 at once,
 * also mid-request. `waitFor` stretches its polls when the rate-limit window runs low.
 *
 * Against the emulator ({@link probeEmulator}), a sandbox message ends where its recipient says:
 * a magic recipient may be read, or stay sent. On a frozen clock it says so at once, with the
 * command that moves the clock; with `advance` it moves the clock itself, a second at a time,
 * reading the message after each move.
 */
export async function followMessage(
  api: ApiSession,
  first: Message,
  options: FollowOptions,
  context: CommandContext,
): Promise<Message> {
  const progress = createProgressLine(context);
  const started = Date.now();
  const trail: string[] = [first.status];
  let message = first;
  let shown = false;
  let movedMs = 0;
  const line = () =>
    `${terminalSafe(message.id)} ${trail.map((status) => colorStatus(context.style, status)).join(' → ')} ` +
    context.style.dim(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
  // Sandbox messages end at delivered and live ones may still be read, unless the recipient is
  // one of the emulator's magic ones, known once the emulator is asked.
  let until: WaitForStatus =
    options.until === 'final' ? (first.livemode ? 'read' : 'delivered') : options.until;
  const update = () => {
    shown = true;
    progress.update(line(), trail.join(' '));
  };
  // Redraws the line while the message is on its way (the spinner and the seconds move on a
  // terminal); off a terminal the key makes it a new line only when the trail grew. The final
  // status is left to `done`.
  const show = (seen: Message) => {
    message = seen;
    if (seen.status !== trail.at(-1)) trail.push(seen.status);
    if (seen.status !== 'failed' && ORDER[seen.status] < ORDER[until]) update();
  };
  let emulator = options.emulator;
  const probe = async () => {
    if (emulator === undefined) emulator = (await probeEmulator(api, context)) ?? null;
    return emulator;
  };
  try {
    // What we already hold may be the answer: no call needed.
    if (first.status === 'failed') {
      progress.done(line());
      throw failedError(first);
    }
    if (!first.livemode && first.direction === 'outbound' && first.to !== null && options.until !== 'sent') {
      // A watch shows where the message is before asking: a slow answer never leaves it blank.
      if (options.until === 'final' && ORDER[first.status] < ORDER[until]) update();
      const target = await probe();
      until = recipientEnd(first, options.until, await target?.magicBehaviour(first.to));
    }
    if (ORDER[first.status] < ORDER[until]) {
      if (!shown) update();
      const target = await probe();
      if (options.advance && target) {
        // One step, one read: deterministic, and no poll waits on a clock that does not move.
        while (message.status !== 'failed' && ORDER[message.status] < ORDER[until]) {
          if (movedMs >= options.timeoutMs) throw advanceTimeout(message, movedMs);
          await target.advance(ADVANCE_STEP_MS);
          movedMs += ADVANCE_STEP_MS;
          if (context.signal.aborted) throw context.signal.reason;
          show(await api.call((client) => client.messages.get(first.id, { signal: context.signal })));
        }
        if (message.status === 'failed') throw failedError(message);
      } else {
        if (target?.clock.mode === 'frozen') {
          say(context, shown, capitalised(frozenHint(target, message, until, options.offersAdvance)));
          if (context.stderr.isTTY && !context.json) update();
        }
        message = await api.call((client) =>
          client.messages.waitFor(first.id, {
            until,
            timeout: options.timeoutMs,
            pollInterval: options.intervalMs,
            signal: context.signal,
            onStatus: show,
            onPoll: show,
          }),
        );
        if (message.status !== trail.at(-1)) trail.push(message.status);
      }
    }
    progress.done(line());
    if (movedMs > 0) context.stderr.write(`Moved the emulator's clock ${movedMs / 1000} s\n`);
    return message;
  } catch (error) {
    if (isAPIUserAbortError(error) || context.signal.aborted) {
      if (shown) progress.done(line());
      throw new ExitError(
        EXIT.interrupted,
        `interrupted: message ${first.id} is not affected; follow it with \`parley messages get ${first.id} --watch\``,
      );
    }
    if (shown) progress.done(line());
    if (isMessageFailedError(error)) throw failedError(error.failedMessage);
    if (isWaitForTimeoutError(error)) {
      const status = (error.lastSeen ?? message).status;
      const frozen =
        emulator?.clock.mode === 'frozen'
          ? ` (${frozenHint(emulator, error.lastSeen ?? message, until, options.offersAdvance)})`
          : '';
      throw new ExitError(
        EXIT.api,
        `message ${message.id} is still ${status} after ${options.timeoutMs / 1000} s: check later with \`parley messages get ${message.id} --watch\`${frozen}`,
      );
    }
    throw error;
  }
}

/**
 * Where a sandbox message ends for the emulator's magic recipients (`parley emulator
 * magic-numbers`): `read` is read, `stays_sent` never gets past sent. Any other recipient, or
 * no emulator at all, ends at delivered, so waiting for read is refused at once.
 */
function recipientEnd(
  message: Message,
  until: 'delivered' | 'read' | 'final',
  behaviour: string | undefined,
): WaitForStatus {
  if (behaviour === 'read') return until === 'delivered' ? 'delivered' : 'read';
  if (behaviour === 'stays_sent') {
    if (until === 'final') return 'sent';
    throw usageError(
      `message ${message.id} stays sent: ${terminalSafe(message.to ?? '')} is the emulator's recipient that is never delivered (\`parley emulator magic-numbers\`); follow it with \`parley messages get ${message.id} --watch\` (or use --wait sent)`,
    );
  }
  if (until === 'read') throw neverReadError(message.id);
  return 'delivered';
}

/** The frozen clock, and the command that moves it far enough for `message` to reach `until`. */
function frozenHint(
  emulator: EmulatorTarget,
  message: Message,
  until: WaitForStatus,
  offersAdvance: boolean | undefined,
): string {
  const age = Date.parse(emulator.clock.now) - Date.parse(message.created_at);
  const seconds = Math.max(1, Math.ceil((STEP_AGE_MS[until] - (Number.isFinite(age) ? age : 0)) / 1000));
  const workspace =
    emulator.clock.workspaceId === undefined ? '' : ` --workspace ${emulator.clock.workspaceId}`;
  return (
    `the emulator's clock is frozen, so message ${terminalSafe(message.id)} stays ${message.status} until it moves: ` +
    `run \`parley emulator clock advance ${seconds}s${workspace}\` in another terminal` +
    (offersAdvance ? ', or send with --wait --advance to have it moved' : '')
  );
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A line of its own on stderr; on a terminal the live progress line is cleared first. */
function say(context: CommandContext, shown: boolean, text: string): void {
  const clear = context.stderr.isTTY && shown && !context.json ? '\r\x1b[2K' : '';
  context.stderr.write(`${clear}${text}\n`);
}

function advanceTimeout(message: Message, movedMs: number): ExitError {
  return new ExitError(
    EXIT.api,
    `message ${message.id} is still ${message.status} after moving the emulator's clock ${movedMs / 1000} s: check later with \`parley messages get ${message.id} --watch\` (--timeout is how far --advance moves it)`,
  );
}

/**
 * Sandbox messages end at `delivered`: waiting for `read` could only time out. The message was
 * sent, so the error says how to follow it to its real end.
 */
function neverReadError(id: string): ExitError {
  return usageError(
    `sandbox messages stop at delivered and are never read: message ${id} was sent; follow it with \`parley messages get ${id} --watch\` (or use --wait delivered)`,
  );
}

function failedError(message: Message): ExitError {
  const reason = message.error ? `${message.error.code}: ${message.error.message}` : 'no reason given';
  return new ExitError(EXIT.api, `message ${message.id} failed: ${reason}`, {
    error: { code: 'message_failed', message: reason, request_id: null, details: { message } },
  });
}
