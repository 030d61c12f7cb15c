import { createEmulator } from '@parley/emulator';
import { createEmulatorHandlers } from '@parley/emulator/msw';
import { isConflictError, isRateLimitError, Parley } from '@parley/sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { confirmationState, sendOrderConfirmation } from '../src/order-notifications';

// The whole sandbox in memory, on a clock that moves only when the test says so.
const emulator = createEmulator({ clock: 'frozen' });
// msw hands every request to http://127.0.0.1:4010 to the emulator: the SDK keeps its normal fetch.
const server = setupServer(...createEmulatorHandlers(emulator));
const parley = new Parley({ apiKey: emulator.sandboxKey, baseUrl: 'http://127.0.0.1:4010/v1' });

const ACTIVE = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
const DISCONNECTED = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b52';
const order = { id: 'A-1042', customerName: 'Ada', phone: '+33612345678' };

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(async () => {
  await emulator.control.reset();
});
afterAll(async () => {
  server.close();
  await emulator.close();
});

describe('order confirmations (a user test suite on the emulator)', () => {
  it('is pending when sent and delivered 5 s later', async () => {
    const message = await sendOrderConfirmation(parley, ACTIVE, order);
    expect(message).toMatchObject({ status: 'queued', client_reference: 'A-1042' });
    expect(await confirmationState(parley, message.id)).toBe('pending');

    await emulator.clock.advance(4_999);
    expect(await confirmationState(parley, message.id)).toBe('pending');
    await emulator.clock.advance(1);
    expect(await confirmationState(parley, message.id)).toBe('delivered');
  });

  it('sends one message when the same order is confirmed twice', async () => {
    const first = await sendOrderConfirmation(parley, ACTIVE, order);
    const again = await sendOrderConfirmation(parley, ACTIVE, order);

    expect(again.id).toBe(first.id);
    expect(emulator.control.listMessages()).toHaveLength(1);
  });

  it('reports an unreachable number as failed', async () => {
    const message = await sendOrderConfirmation(parley, ACTIVE, { ...order, phone: '+33600000000' });

    expect(await confirmationState(parley, message.id)).toBe('failed');
  });

  it('surfaces a disconnected connection as a ConflictError', async () => {
    const error = await sendOrderConfirmation(parley, DISCONNECTED, order).catch((caught: unknown) => caught);

    expect(isConflictError(error) && error.code).toBe('connection_inactive');
  });

  it('hits the 30-per-minute send limit like the real sandbox, and recovers in the next minute', async () => {
    const impatient = new Parley({
      apiKey: emulator.sandboxKey,
      baseUrl: 'http://127.0.0.1:4010/v1',
      maxRetries: 0,
    });
    // Start at the top of a clock minute so all sends share one rate-limit window.
    await emulator.clock.advance(60_000 - (emulator.clock.now() % 60_000));
    for (let index = 0; index < 30; index++) {
      await sendOrderConfirmation(impatient, ACTIVE, { ...order, id: `B-${index}` });
    }

    const refused = await sendOrderConfirmation(impatient, ACTIVE, { ...order, id: 'B-30' }).catch(
      (e: unknown) => e,
    );
    expect(isRateLimitError(refused) && refused.bucket).toBe('sends');

    await emulator.clock.advance(60_000);
    await expect(sendOrderConfirmation(impatient, ACTIVE, { ...order, id: 'B-30' })).resolves.toMatchObject({
      status: 'queued',
    });
  });
});
