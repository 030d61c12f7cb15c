import { describe, expect, it } from 'vitest';
import { ACTIVE_CONNECTION, expectOwnTime, takeWorkspace } from './_workspace';

describe('read receipts (worker with its own workspace)', () => {
  it('the magic recipient +15550101002 is delivered at 5 s and read at 10 s', async () => {
    const workspace = await takeWorkspace('read-receipts');
    const parley = workspace.client();
    const message = await parley.messages.send({
      connection_id: ACTIVE_CONNECTION,
      to: '+15550101002',
      type: 'template',
      template: { name: 'hello_world', language: 'en' },
    });
    await workspace.advance(9_999);
    expect((await parley.messages.get(message.id)).status).toBe('delivered');
    await workspace.advance(1);
    expect((await parley.messages.get(message.id)).status).toBe('read');
    expect(await workspace.messageIds()).toEqual([message.id]);
    await expectOwnTime(workspace, 10_000);
  });
});
