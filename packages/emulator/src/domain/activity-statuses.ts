import type { MessageStatus } from '@parley/sdk';

// Every message status, once: a status added to the SDK fails type-checking until it is listed.
const MESSAGE_STATUSES = {
  queued: true,
  sent: true,
  delivered: true,
  read: true,
  failed: true,
  received: true,
} satisfies Record<MessageStatus, true>;

/**
 * The statuses to filter the activity on (`GET /_emulator/activity?status=`): the classes of HTTP
 * statuses, the message statuses, then `pending`, the one delivery status that is not a message's
 * too (a delivery is `pending`, `delivered` or `failed`). An exact HTTP status (`404`) is typed.
 * The console's timeline offers them, and `parley logs tail --status` completes them.
 */
export const ACTIVITY_STATUSES: readonly string[] = [
  '2xx',
  '4xx',
  '5xx',
  ...Object.keys(MESSAGE_STATUSES),
  'pending',
];
