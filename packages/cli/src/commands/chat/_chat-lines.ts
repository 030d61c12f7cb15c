import type { ConversationItem } from '@parley/emulator/control';
import type { ChalkInstance } from 'chalk';
import { terminalSafe } from '../../output/terminal-safe';

const TICKS: Record<string, string> = { queued: '◷', sent: '✓', delivered: '✓✓', read: '✓✓', failed: '✗' };

/**
 * One line of the chat for a message that is new or changed status: its emulator time (UTC), who
 * wrote it, what it says, and an outbound message's status as ticks (failed with its error).
 * Every string from the emulator is made terminal-safe.
 */
export function chatLine(item: ConversationItem, style: ChalkInstance): string {
  const { message } = item;
  const at = (item.history.at(-1)?.at ?? message.created_at).slice(11, 19);
  const content = terminalSafe(
    message.text ?? item.template_body ?? (message.template ? `template ${message.template.name}` : ''),
  );
  if (message.direction === 'inbound') {
    return `${style.dim(at)}  ${style.cyan(terminalSafe(message.from ?? ''))}: ${content}`;
  }
  const status = `${TICKS[message.status] ?? ''} ${message.status}`.trim();
  const error = message.error
    ? ` ${terminalSafe(message.error.code)}: ${terminalSafe(message.error.message)}`
    : '';
  const shown =
    message.status === 'failed'
      ? style.red(status + error)
      : message.status === 'read'
        ? style.blue(status)
        : style.dim(status);
  return `${style.dim(at)}  ${style.green('app')}: ${content}  ${shown}`;
}

/** Which items of a thread are new or changed status since `seen` (updated in place). */
export function changedItems(
  items: readonly ConversationItem[],
  seen: Map<string, string>,
): ConversationItem[] {
  const changed: ConversationItem[] = [];
  for (const item of items) {
    const { id, status } = item.message;
    if (seen.get(id) === status) continue;
    seen.set(id, status);
    changed.push(item);
  }
  return changed;
}
