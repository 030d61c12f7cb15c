import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { isConflictError, isRateLimitError } from '@parley/sdk';
import { confirmationState, sendOrderConfirmation } from '#src/order-notifications';
import { sandboxPerTest } from '#test/sandbox-per-test';

// The suite of examples/vitest-with-emulator, with node:test: each test gets its own sandbox
// (workspace, application, key, frozen clock) in an in-process emulator. `parley` is an SDK client
// with the sandbox's key; `advance` moves only this test's clock.

const ACTIVE = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
const DISCONNECTED = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b52';
const order = { id: 'A-1042', customerName: 'Ada', phone: '+33612345678' };
const sandboxTest = sandboxPerTest();

describe('order confirmations (a user test suite on the emulator)', () => {
  sandboxTest('is pending when sent and delivered 5 s later', async ({ parley, advance }) => {
    const message = await sendOrderConfirmation(parley, ACTIVE, order);
    assert.equal(message.status, 'queued');
    assert.equal(message.client_reference, 'A-1042');
    assert.equal(await confirmationState(parley, message.id), 'pending');

    await advance('4999ms');
    assert.equal(await confirmationState(parley, message.id), 'pending');
    await advance('1ms');
    assert.equal(await confirmationState(parley, message.id), 'delivered');
  });

  sandboxTest(
    'sends one message when the same order is confirmed twice',
    async ({ parley, emulator, applicationId }) => {
      const first = await sendOrderConfirmation(parley, ACTIVE, order);
      const again = await sendOrderConfirmation(parley, ACTIVE, order);

      assert.equal(again.id, first.id);
      assert.equal((await emulator.control.listMessages({ applicationId })).data.length, 1);
    },
  );

  sandboxTest('reports an unreachable number as failed', async ({ parley }) => {
    const message = await sendOrderConfirmation(parley, ACTIVE, { ...order, phone: '+33600000000' });

    assert.equal(await confirmationState(parley, message.id), 'failed');
  });

  sandboxTest('surfaces a disconnected connection as a ConflictError', async ({ parley }) => {
    const error = await sendOrderConfirmation(parley, DISCONNECTED, order).catch((caught: unknown) => caught);

    assert.equal(isConflictError(error) && error.code, 'connection_inactive');
  });

  sandboxTest(
    'hits the 30-per-minute send limit, and recovers in the next minute',
    async ({ client, clock, advance }) => {
      const impatient = client({ maxRetries: 0 });
      // Start at the top of a clock minute so all sends share one rate-limit window.
      await advance(60_000 - (clock.now() % 60_000));
      for (let index = 0; index < 30; index++) {
        await sendOrderConfirmation(impatient, ACTIVE, { ...order, id: `B-${index}` });
      }

      const refused = await sendOrderConfirmation(impatient, ACTIVE, { ...order, id: 'B-30' }).catch(
        (e: unknown) => e,
      );
      assert.equal(isRateLimitError(refused) && refused.bucket, 'sends');

      await advance('1m');
      const retried = await sendOrderConfirmation(impatient, ACTIVE, { ...order, id: 'B-30' });
      assert.equal(retried.status, 'queued');
    },
  );

  sandboxTest(
    'tells a webhook receiver sent at 2 s, then delivered at 5 s',
    async ({ parley, advance, receiver }) => {
      const hook = await receiver({ events: ['message.status_updated'] });
      const message = await sendOrderConfirmation(parley, ACTIVE, order);
      await advance('5s');

      const sent = await hook.next('message.status_updated');
      const delivered = await hook.next('message.status_updated');
      assert.deepEqual([sent.data.message.status, delivered.data.message.status], ['sent', 'delivered']);
      assert.equal(delivered.data.message.id, message.id);
      assert.equal(delivered.data.message.client_reference, 'A-1042');
    },
  );
});
