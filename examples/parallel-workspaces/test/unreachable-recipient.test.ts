import { describe, expect, it } from 'vitest';
import { ACTIVE_CONNECTION, expectOwnTime, takeWorkspace } from './_workspace';

describe('unreachable recipient (worker with its own workspace)', () => {
  it('a number ending in 0000 is accepted as failed, and stays failed', async () => {
    const workspace = await takeWorkspace('unreachable-recipient');
    const parley = workspace.client();
    const message = await parley.messages.send({
      connection_id: ACTIVE_CONNECTION,
      to: '+15550100000',
      type: 'text',
      text: 'Votre colis arrive.',
    });
    expect(message).toMatchObject({ status: 'failed', error: { code: 'recipient_unreachable' } });
    await workspace.advance(7_000);
    expect((await parley.messages.get(message.id)).status).toBe('failed');
    expect(await workspace.messageIds()).toEqual([message.id]);
    await expectOwnTime(workspace, 7_000);
  });
});
