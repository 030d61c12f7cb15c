import type { Message, MessageStatus, RateLimitInfo } from '@parley/sdk';
import type { CommandContext } from '../context';
import { EXIT, ExitError } from '../exit-error';
import { createProgressLine } from '../output/progress-line';
import { colorStatus } from '../output/status-color';
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
 * Polls a message and keeps a live progress line (`queued → sent → delivered`) until it reaches
 * `until`. A failed message is exit 1 with its error; running out of time is exit 1 too; Ctrl-C
 * is exit 130. Polls stretch out when the rate-limit window runs low, so following never 429s.
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
  for (;;) {
    const line = () =>
      `${message.id} ${trail.map((status) => colorStatus(context.style, status)).join(' → ')} ` +
      context.style.dim(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
    if (message.status === 'failed') {
      progress.done(line());
      const reason = message.error ? `${message.error.code}: ${message.error.message}` : 'no reason given';
      throw new ExitError(EXIT.api, `message ${message.id} failed: ${reason}`, {
        error: { code: 'message_failed', message: reason, request_id: null, details: { message } },
      });
    }
    if (reached(message, options.until)) {
      progress.done(line());
      return message;
    }
    progress.update(line(), trail.join(' '));
    if (Date.now() - started >= options.timeoutMs) {
      progress.done(line());
      throw new ExitError(
        EXIT.api,
        `message ${message.id} is still ${message.status} after ${options.timeoutMs / 1000} s: check later with \`parley messages get ${message.id} --watch\``,
      );
    }
    const { data, rateLimit } = await pause(options.intervalMs, context.signal).then(() =>
      api.call((client) => client.messages.get(message.id).withResponse()),
    );
    if (data.status !== message.status) trail.push(data.status);
    message = data;
    await pause(politeDelay(rateLimit), context.signal);
  }
}

function reached(message: Message, until: FollowOptions['until']): boolean {
  if (until !== 'final') return ORDER[message.status] >= ORDER[until];
  // Sandbox messages end at delivered; live ones may still be read.
  return (
    message.status === 'read' ||
    message.status === 'received' ||
    (!message.livemode && message.status === 'delivered')
  );
}

function politeDelay(rateLimit: RateLimitInfo | null): number {
  if (!rateLimit || rateLimit.remaining > rateLimit.limit / 4) return 0;
  return (rateLimit.reset * 1000) / Math.max(rateLimit.remaining, 1);
}

function pause(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const interrupted = () => {
      clearTimeout(timer);
      reject(new ExitError(EXIT.interrupted, 'interrupted: the message is not affected'));
    };
    if (signal.aborted) return interrupted();
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', interrupted);
      resolve();
    }, milliseconds);
    signal.addEventListener('abort', interrupted, { once: true });
  });
}
