import { describe, expect, it } from 'vitest';
import { ACTIVE_CONNECTION, expectOwnTime, takeWorkspace } from './_workspace';

describe('late delivery (worker with its own workspace)', () => {
  it('the magic recipient +15550101003 is still sent at 59.999 s and delivered at 60 s', async () => {
    const workspace = await takeWorkspace('late-delivery');
    const parley = workspace.client();
    const message = await parley.messages.send({
      connection_id: ACTIVE_CONNECTION,
      to: '+15550101003',
      type: 'text',
      text: 'Votre commande est en route.',
    });
    await workspace.advance(59_999);
    expect((await parley.messages.get(message.id)).status).toBe('sent');
    await workspace.advance(1);
    const delivered = await parley.messages.get(message.id);
    expect(delivered).toMatchObject({ status: 'delivered', updated_at: '2026-10-14T09:01:00Z' });
    expect(await workspace.messageIds()).toEqual([message.id]);
    await expectOwnTime(workspace, 60_000);
  });
});
