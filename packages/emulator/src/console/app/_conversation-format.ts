import type { ConversationItem } from '../../core/control-types';

/** A status as ticks, the way a phone shows them: failed and received have none. */
export function ticksOf(status: string): string {
  if (status === 'sent') return '✓';
  if (status === 'delivered' || status === 'read') return '✓✓';
  if (status === 'queued') return '◷';
  return '';
}

/** A window's time left, `23 h 59 min` (under a minute: `< 1 min`). */
export function remainingText(ms: number): string {
  if (ms <= 0) return 'closed';
  const minutes = Math.floor(ms / 60_000);
  if (minutes === 0) return '< 1 min';
  const hours = Math.floor(minutes / 60);
  return hours === 0 ? `${minutes} min` : `${hours} h ${minutes % 60} min`;
}

/** What a message says: its text, or a template's body (or name when the body is unknown). */
export function contentOf(item: ConversationItem): string {
  const { message } = item;
  if (message.text !== null) return message.text;
  if (item.template_body !== null) return item.template_body;
  return message.template ? `Template ${message.template.name} (${message.template.language})` : '';
}
