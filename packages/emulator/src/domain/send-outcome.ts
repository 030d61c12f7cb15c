import type { Message, SendMessageParams } from '@parley/sdk';
import { insideWindow } from './live-simulation';

/** What the outcome of a send depends on besides the send itself. */
export interface SendCircumstances {
  /** Whether the sending application is live (simulated) rather than sandbox. */
  live: boolean;
  /** Opening times of the senders' 24 h windows (`EmulatorState.windows`). */
  windows: Readonly<Record<string, number>>;
  /** Emulator time of the send, ms. */
  now: number;
}

/**
 * The message error an accepted send is born with, or null when it is queued normally: a sandbox
 * recipient ending in `0000` is unreachable (DESIGN §2), and live text needs the recipient's open
 * 24 h window (DESIGN §4). Either way the send is still accepted (202) with `status: "failed"`.
 *
 * @example
 * sendFailure({ connection_id, to: '+33612340000', type: 'template' }, { live: false, windows, now })
 * // → { code: 'recipient_unreachable', message: 'The sandbox recipient +33612340000 is unreachable.' }
 */
export function sendFailure(
  params: Pick<SendMessageParams, 'connection_id' | 'to' | 'type'>,
  { live, windows, now }: SendCircumstances,
): Message['error'] {
  if (!live && params.to.endsWith('0000')) {
    return { code: 'recipient_unreachable', message: `The sandbox recipient ${params.to} is unreachable.` };
  }
  if (live && params.type === 'text' && !insideWindow(windows, params.connection_id, params.to, now)) {
    return {
      code: 'outside_messaging_window',
      message: `${params.to} has not written to this number in the last 24 hours; send a template instead.`,
    };
  }
  return null;
}
