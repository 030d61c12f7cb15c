import type { SandboxEventResult } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { testContext } from '../../_test/test-context';
import { renderTrigger } from './index';

const queued = (deliveries: number) =>
  ({
    object: 'sandbox_event',
    id: 'evt_0123456789abcdef0123456789abcdef',
    type: 'webhook.test',
    deliveries_queued: deliveries,
    livemode: false,
  }) as unknown as SandboxEventResult;

describe('renderTrigger', () => {
  it('says in sentences that nobody subscribes, and what to run', () => {
    expect(renderTrigger(queued(0), testContext())).toBe(
      'Queued webhook.test evt_0123456789abcdef0123456789abcdef, but no endpoint subscribes to it.\n' +
        'Run `parley listen --forward-to <url>` in another terminal to receive it.',
    );
  });

  it('counts the endpoints it went to', () => {
    expect(renderTrigger(queued(1), testContext())).toBe(
      'Queued webhook.test evt_0123456789abcdef0123456789abcdef to 1 endpoint.',
    );
    expect(renderTrigger(queued(3), testContext())).toBe(
      'Queued webhook.test evt_0123456789abcdef0123456789abcdef to 3 endpoints.',
    );
  });
});
