import { describe, expect, it } from 'vitest';
import { ACTIVE_CONNECTION, expectOwnTime, takeWorkspace } from './_workspace';

describe('a 503 on the first send (worker with its own workspace)', () => {
  it('the SDK retries with the same Idempotency-Key: one message, the fault used up', async () => {
    const workspace = await takeWorkspace('retry-after-503');
    // Tied to this workspace's key: the other workers' sends never meet it.
    const fault = await workspace.control.createFault({
      method: 'POST',
      path: '/v1/messages',
      key_id: workspace.keyId,
      fault: { status: 503, code: 'service_unavailable' },
    });
    const message = await workspace.client().messages.send({
      connection_id: ACTIVE_CONNECTION,
      to: '+33612345678',
      type: 'text',
      text: 'Paiement reçu.',
    });
    expect(message.status).toBe('queued');
    const faults = (await workspace.control.listFaults({ limit: 100 })).data;
    expect(faults.find((listed) => listed.id === fault.id)).toMatchObject({ remaining: 0 });
    await workspace.advance(6_000);
    expect((await workspace.client().messages.get(message.id)).status).toBe('delivered');
    expect(await workspace.messageIds()).toEqual([message.id]);
    await expectOwnTime(workspace, 6_000);
  });
});
