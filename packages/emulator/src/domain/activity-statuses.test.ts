import { expect, test } from 'vitest';
import { ACTIVITY_STATUSES } from './activity-statuses';

test('the activity statuses: the HTTP classes, every message status, and a delivery’s pending', () => {
  expect(ACTIVITY_STATUSES).toEqual([
    '2xx',
    '4xx',
    '5xx',
    'queued',
    'sent',
    'delivered',
    'read',
    'failed',
    'received',
    'pending',
  ]);
});
