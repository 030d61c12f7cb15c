import { test } from '@parley/emulator/vitest';
import { isConflictError, isRateLimitError } from '@parley/sdk';
import { describe, expect } from 'vitest';
import { confirmationState, sendOrderConfirmation } from '../src/order-notifications';

// Each test gets its own sandbox (workspace, application, key, frozen clock) in an emulator that
// runs in process, one per vitest worker: `parley` is an SDK client with the sandbox's key, and
// `advance` moves only this test's clock. Nothing to reset between tests, and tests may run
// concurrently.

const ACTIVE = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
const DISCONNECTED = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b52';
const order = { id: 'A-1042', customerName: 'Ada', phone: '+33612345678' };

describe('order confirmations (a user test suite on the emulator)', () => {
  test('is pending when sent and delivered 5 s later', async ({ parley, advance }) => {
    const message = await sendOrderConfirmation(parley, ACTIVE, order);
    expect(message).toMatchObject({ status: 'queued', client_reference: 'A-1042' });
    expect(await confirmationState(parley, message.id)).toBe('pending');

    await advance('4999ms');
    expect(await confirmationState(parley, message.id)).toBe('pending');
    await advance('1ms');
    expect(await confirmationState(parley, message.id)).toBe('delivered');
  });

  test('sends one message when the same order is confirmed twice', async ({ parley, emulator, sandbox }) => {
    const first = await sendOrderConfirmation(parley, ACTIVE, order);
    const again = await sendOrderConfirmation(parley, ACTIVE, order);

    expect(again.id).toBe(first.id);
    expect((await emulator.control.listMessages({ applicationId: sandbox.applicationId })).data).toHaveLength(
      1,
    );
  });

  test('reports an unreachable number as failed', async ({ parley }) => {
    const message = await sendOrderConfirmation(parley, ACTIVE, { ...order, phone: '+33600000000' });

    expect(await confirmationState(parley, message.id)).toBe('failed');
  });

  test('surfaces a disconnected connection as a ConflictError', async ({ parley }) => {
    const error = await sendOrderConfirmation(parley, DISCONNECTED, order).catch((caught: unknown) => caught);

    expect(isConflictError(error) && error.code).toBe('connection_inactive');
  });

  test('hits the 30-per-minute send limit like the real sandbox, and recovers in the next minute', async ({
    sandbox,
    advance,
  }) => {
    const impatient = sandbox.client({ maxRetries: 0 });
    // Start at the top of a clock minute so all sends share one rate-limit window.
    await advance(60_000 - (sandbox.clock.now() % 60_000));
    for (let index = 0; index < 30; index++) {
      await sendOrderConfirmation(impatient, ACTIVE, { ...order, id: `B-${index}` });
    }

    const refused = await sendOrderConfirmation(impatient, ACTIVE, { ...order, id: 'B-30' }).catch(
      (e: unknown) => e,
    );
    expect(isRateLimitError(refused) && refused.bucket).toBe('sends');

    await advance('1m');
    await expect(sendOrderConfirmation(impatient, ACTIVE, { ...order, id: 'B-30' })).resolves.toMatchObject({
      status: 'queued',
    });
  });

  test('tells a webhook receiver sent at 2 s, then delivered at 5 s', async ({
    parley,
    advance,
    receiver,
  }) => {
    const hook = await receiver({ events: ['message.status_updated'] });
    const message = await sendOrderConfirmation(parley, ACTIVE, order);
    await advance('5s');

    const sent = await hook.next('message.status_updated');
    const delivered = await hook.next('message.status_updated');
    expect([sent.data.message.status, delivered.data.message.status]).toEqual(['sent', 'delivered']);
    expect(delivered.data.message).toMatchObject({ id: message.id, client_reference: 'A-1042' });
  });
});
