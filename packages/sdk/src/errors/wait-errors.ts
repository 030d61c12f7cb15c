import type { Message } from '../wire/message';
import { brandError, ParleyError } from './parley-error';

/** `messages.waitFor` saw the message fail; `failedMessage.error` says why. */
export class MessageFailedError extends ParleyError {
  /** The failed message. */
  declare readonly failedMessage: Message;

  constructor(message: Message) {
    super(
      `Message ${message.id} failed${message.error ? `: ${message.error.code} (${message.error.message})` : ''}`,
    );
    this.failedMessage = message;
  }
}

/** `messages.waitFor` gave up: the message did not reach the wanted status in time. */
export class WaitForTimeoutError extends ParleyError {
  /** The message as last seen, or undefined when it was never read. */
  declare readonly lastSeen: Message | undefined;

  constructor(message: string, lastSeen: Message | undefined) {
    super(message);
    this.lastSeen = lastSeen;
  }
}

/** True for a {@link MessageFailedError}. */
export const isMessageFailedError = brandError(MessageFailedError, 'MessageFailedError');
/** True for a {@link WaitForTimeoutError}. */
export const isWaitForTimeoutError = brandError(WaitForTimeoutError, 'WaitForTimeoutError');
