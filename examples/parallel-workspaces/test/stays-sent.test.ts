import { describe, expect, it } from 'vitest';
import { ACTIVE_CONNECTION, expectOwnTime, takeWorkspace } from './_workspace';

describe('never delivered (worker with its own workspace)', () => {
  it('the magic recipient +15550101001 is still sent a day later', async () => {
    const workspace = await takeWorkspace('stays-sent');
    const parley = workspace.client();
    const message = await parley.messages.send({
      connection_id: ACTIVE_CONNECTION,
      to: '+15550101001',
      type: 'text',
      text: 'Rappel : votre rendez-vous est demain.',
    });
    await workspace.advance(86_400_000);
    expect((await parley.messages.get(message.id)).status).toBe('sent');
    expect(await workspace.messageIds()).toEqual([message.id]);
    await expectOwnTime(workspace, 86_400_000);
  });
});
