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
  timeoutMs: number;
  intervalMs: number;
}

/**
 * Follows a message with the SDK's `messages.waitFor` and keeps a live progress line
 * (`queued → sent → delivered`) until it reaches `until`. A failed message is exit 1 with its
 * error; running out of time is exit 1 too; Ctrl-C (the context's signal) is exit 130 at once,
 * also mid-request. `waitFor` stretches its polls when the rate-limit window runs low.
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
  const line = () =>
    `${terminalSafe(message.id)} ${trail.map((status) => colorStatus(context.style, status)).join(' → ')} ` +
    context.style.dim(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
  // Sandbox messages end at delivered; live ones may still be read.
  const until: WaitForStatus =
    options.until === 'final' ? (first.livemode ? 'read' : 'delivered') : options.until;
  // Redraws the line while the message is on its way (the spinner and the seconds move on a
  // terminal); off a terminal the key makes it a new line only when the trail grew. The final
  // status is left to `done`.
  const show = (seen: Message) => {
    message = seen;
    if (seen.status !== 'failed' && ORDER[seen.status] < ORDER[until])
      progress.update(line(), trail.join(' '));
  };
  if (until === 'read' && !first.livemode) throw neverReadError(first.id);
  try {
    // What we already hold may be the answer: no call needed.
    if (first.status === 'failed') throw failedError(first);
    if (ORDER[first.status] < ORDER[until]) {
      progress.update(line(), trail.join(' '));
      message = await api.call((client) =>
        client.messages.waitFor(first.id, {
          until,
          timeout: options.timeoutMs,
          pollInterval: options.intervalMs,
          signal: context.signal,
          onStatus: (seen) => {
            if (seen.status !== trail.at(-1)) trail.push(seen.status);
            show(seen);
          },
          onPoll: show,
        }),
      );
    }
    progress.done(line());
    return message;
  } catch (error) {
    if (isAPIUserAbortError(error)) {
      progress.done(line());
      throw new ExitError(
        EXIT.interrupted,
        `interrupted: message ${first.id} is not affected; follow it with \`parley messages get ${first.id} --watch\``,
      );
    }
    progress.done(line());
    if (isMessageFailedError(error)) throw failedError(error.failedMessage);
    if (isWaitForTimeoutError(error)) {
      const status = (error.lastSeen ?? message).status;
      throw new ExitError(
        EXIT.api,
        `message ${message.id} is still ${status} after ${options.timeoutMs / 1000} s: check later with \`parley messages get ${message.id} --watch\``,
      );
    }
    throw error;
  }
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
