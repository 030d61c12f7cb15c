import { isRateLimitError } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { ACTIVE_CONNECTION, expectOwnTime, takeWorkspace } from './_workspace';

describe('the sends rate limit (worker with its own workspace)', () => {
  it('30 sends fill this key’s minute; the 31st is refused until this workspace’s next minute', async () => {
    const workspace = await takeWorkspace('rate-limit');
    const parley = workspace.client({ maxRetries: 0 });
    const send = (index: number) =>
      parley.messages.send(
        { connection_id: ACTIVE_CONNECTION, to: '+33612345678', type: 'text', text: `Message ${index}` },
        { idempotencyKey: `rate-limit-${index}` },
      );
    const sent = [];
    for (let index = 0; index < 30; index++) sent.push((await send(index)).id);
    const refused = await send(30).catch((error: unknown) => error);
    expect(isRateLimitError(refused)).toBe(true);
    expect((refused as { headers: Headers }).headers.get('retry-after')).toBe('60');
    await workspace.advance(60_000);
    sent.push((await send(30)).id);
    expect((await workspace.messageIds()).sort()).toEqual(sent.sort());
    await expectOwnTime(workspace, 60_000);
  });
});
