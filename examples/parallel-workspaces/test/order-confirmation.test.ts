import { describe, expect, it } from 'vitest';
import { ACTIVE_CONNECTION, expectOwnTime, takeWorkspace } from './_workspace';

describe('order confirmation (worker with its own workspace)', () => {
  it('is queued, sent at 2 s and delivered at 5 s of this workspace’s clock', async () => {
    const workspace = await takeWorkspace('order-confirmation');
    const parley = workspace.client();
    const message = await parley.messages.send({
      connection_id: ACTIVE_CONNECTION,
      to: '+33612345678',
      type: 'template',
      template: { name: 'order_confirmation', language: 'fr', variables: ['Ada', 'A-1042'] },
      client_reference: 'A-1042',
    });
    expect(message.created_at).toBe('2026-10-14T09:00:00Z');
    await workspace.advance(1_999);
    expect((await parley.messages.get(message.id)).status).toBe('queued');
    await workspace.advance(1);
    expect((await parley.messages.get(message.id)).status).toBe('sent');
    await workspace.advance(3_000);
    expect((await parley.messages.get(message.id)).status).toBe('delivered');
    expect(await workspace.messageIds()).toEqual([message.id]);
    await expectOwnTime(workspace, 5_000);
  });
});
