import type { Message } from '@parley/sdk';
import { openApiSession } from '../../client/api-session';
import { followMessage } from '../../client/follow-message';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { usageError } from '../../exit-error';
import { renderMessage } from '../../output/message-view';
import { positiveNumber } from '../_numbers';
import { defineCommand } from '../command-module';

/** `parley messages get ID [--watch]`. */
export interface MessagesGetOptions extends ClientOptions {
  id: string;
  watch?: boolean;
  /** Seconds, as typed. */
  timeout?: string | number;
  /** Milliseconds between polls, as typed. */
  interval?: string | number;
}

/** `GET /v1/messages/{id}`; with `watch`, follows it to the end of its lifecycle. */
export async function getMessage(options: MessagesGetOptions, context: CommandContext): Promise<Message> {
  if (!options.id) throw usageError('missing message id: parley messages get <id>');
  const api = await openApiSession(options, context);
  const message = await api.call((client) => client.messages.get(options.id));
  if (!options.watch) return message;
  return followMessage(
    api,
    message,
    {
      until: 'final',
      timeoutMs: positiveNumber(options.timeout ?? 300, '--timeout') * 1000,
      intervalMs: positiveNumber(options.interval ?? 1000, '--interval'),
    },
    context,
  );
}

export default defineCommand({
  run: getMessage,
  render: (message, { style }) => renderMessage(style, message),
  longRunning: true,
});
