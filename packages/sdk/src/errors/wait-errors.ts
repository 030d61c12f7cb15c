import type { Message } from '../wire/message';
import { isErrorOfKind, markErrorKind, ParleyError } from './parley-error';

/** `messages.waitFor` saw the message fail; `message.error` says why. */
export class MessageFailedError extends ParleyError {
  /** The failed message. */
  readonly failedMessage: Message;

  constructor(message: Message) {
    const reason = message.error ? `: ${message.error.code} (${message.error.message})` : '';
    super(`Message ${message.id} failed${reason}`);
    markErrorKind(this, 'MessageFailedError');
    this.failedMessage = message;
  }
}

/** `messages.waitFor` gave up: the message did not reach the wanted status in time. */
export class WaitForTimeoutError extends ParleyError {
  /** The message as last seen, or undefined when it was never read. */
  readonly lastSeen: Message | undefined;

  constructor(message: string, lastSeen: Message | undefined) {
    super(message);
    markErrorKind(this, 'WaitForTimeoutError');
    this.lastSeen = lastSeen;
  }
}

/** True for a {@link MessageFailedError}. */
export const isMessageFailedError = (value: unknown): value is MessageFailedError =>
  isErrorOfKind(value, 'MessageFailedError');
/** True for a {@link WaitForTimeoutError}. */
export const isWaitForTimeoutError = (value: unknown): value is WaitForTimeoutError =>
  isErrorOfKind(value, 'WaitForTimeoutError');
