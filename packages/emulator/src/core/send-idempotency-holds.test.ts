import type { Message } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { templateSend, testEmulator } from '../_testing/test-emulator';
import { thrownDomainError } from '../_testing/thrown-domain-error';
import { bodyFingerprint, IDEMPOTENCY_TTL_MS } from '../domain/idempotency';
import { createEmptyState } from '../store/state';
import { SendIdempotency } from './send-idempotency';

const ACCEPTED = Date.UTC(2026, 9, 14, 9, 30);
const MESSAGE_ID = '11111111-1111-4111-8111-111111111111';

/** A SendIdempotency over an empty state holding one message, accepted at {@link ACCEPTED}. */
function holds() {
  const state = createEmptyState();
  state.messages[MESSAGE_ID] = {
    message: { id: MESSAGE_ID } as Message,
    application_id: 'app',
    workspace_id: 'ws',
    accepted_at: ACCEPTED,
    announced: 0,
  };
  return { state, idempotency: new SendIdempotency(() => state) };
}

const IN_USE = {
  code: 'idempotency_key_in_use',
  status: 409,
  message: 'A request with this Idempotency-Key is still being processed; retry shortly.',
};

describe('SendIdempotency holds (DESIGN §2)', () => {
  test('the first request with a key holds it; a second one meanwhile is busy and told 409 idempotency_key_in_use', () => {
    const { idempotency } = holds();
    const first = idempotency.begin('key-1', 'order-42');
    expect(first).toEqual({ header: 'order-42', slot: 'key-1\norder-42', busy: false });
    const second = idempotency.begin('key-1', 'order-42');
    expect(second).toEqual({ header: 'order-42', slot: 'key-1\norder-42', busy: true });
    expect(thrownDomainError(() => idempotency.replay(second, 'f', ACCEPTED))).toMatchObject(IN_USE);
    expect(idempotency.replay(first, 'f', ACCEPTED)).toBeUndefined();
  });

  test("a busy request's release leaves the first request's hold in place", () => {
    const { idempotency } = holds();
    const first = idempotency.begin('key-1', 'order-42');
    idempotency.release(idempotency.begin('key-1', 'order-42'));
    const third = idempotency.begin('key-1', 'order-42');
    expect(third.busy).toBe(true);
    expect(thrownDomainError(() => idempotency.replay(third, 'f', ACCEPTED))).toMatchObject(IN_USE);
    idempotency.release(first);
    expect(idempotency.begin('key-1', 'order-42').busy).toBe(false);
  });

  test('the first request releasing frees the key for the next one, whatever its outcome', () => {
    const { idempotency } = holds();
    idempotency.release(idempotency.begin('key-1', 'order-42'));
    const next = idempotency.begin('key-1', 'order-42');
    expect(next.busy).toBe(false);
    expect(idempotency.replay(next, 'f', ACCEPTED)).toBeUndefined();
  });

  test('holds are per API key and per Idempotency-Key', () => {
    const { idempotency } = holds();
    idempotency.begin('key-1', 'order-42');
    expect(idempotency.begin('key-2', 'order-42')).toEqual({
      header: 'order-42',
      slot: 'key-2\norder-42',
      busy: false,
    });
    expect(idempotency.begin('key-1', 'order-43').busy).toBe(false);
  });

  test('without the header nothing is held: every such request is told 400 idempotency_key_required', () => {
    const { idempotency } = holds();
    const first = idempotency.begin('key-1', null);
    const second = idempotency.begin('key-1', null);
    expect(first).toEqual({ header: null, slot: 'key-1\n', busy: false });
    expect(second.busy).toBe(false);
    expect(thrownDomainError(() => idempotency.replay(second, 'f', ACCEPTED))).toMatchObject({
      code: 'idempotency_key_required',
      status: 400,
    });
    idempotency.release(first);
    idempotency.release(second);
  });

  test('an empty header is malformed (400 validation_error), never in use', () => {
    const { idempotency } = holds();
    expect(idempotency.begin('key-1', '')).toEqual({ header: '', slot: 'key-1\n', busy: false });
    const second = idempotency.begin('key-1', '');
    expect(second.busy).toBe(false);
    expect(thrownDomainError(() => idempotency.replay(second, 'f', ACCEPTED))).toMatchObject({
      code: 'validation_error',
      status: 400,
      details: { field: 'Idempotency-Key', reason: 'invalid_format' },
    });
  });

  test('a malformed key is told so before being told it is in use', () => {
    const { idempotency } = holds();
    const key = 'tab\there';
    idempotency.begin('key-1', key);
    const busy = idempotency.begin('key-1', key);
    expect(busy.busy).toBe(true);
    expect(thrownDomainError(() => idempotency.replay(busy, 'f', ACCEPTED))).toMatchObject({
      code: 'validation_error',
      status: 400,
    });
  });

  test('clear() forgets every hold (the state they were about was replaced)', () => {
    const { idempotency } = holds();
    idempotency.begin('key-1', 'order-42');
    idempotency.begin('key-2', 'order-7');
    idempotency.clear();
    expect(idempotency.begin('key-1', 'order-42').busy).toBe(false);
    expect(idempotency.begin('key-2', 'order-7').busy).toBe(false);
  });

  test('a request begun before clear() does not free the hold a request took after it', () => {
    const { idempotency } = holds();
    const beforeReset = idempotency.begin('key-1', 'order-42');
    idempotency.clear();
    const afterReset = idempotency.begin('key-1', 'order-42');
    expect(afterReset.busy).toBe(false);
    idempotency.release(beforeReset);
    expect(idempotency.begin('key-1', 'order-42').busy).toBe(true);
    idempotency.release(afterReset);
    expect(idempotency.begin('key-1', 'order-42').busy).toBe(false);
  });
});

describe('SendIdempotency records (DESIGN §2)', () => {
  const fingerprint = bodyFingerprint({ to: '+15550123456' });

  test('entry(): the journal entry of the record, fingerprint then message id', () => {
    const { idempotency } = holds();
    expect(idempotency.entry('key-1\norder-42', fingerprint, MESSAGE_ID)).toEqual({
      c: 'idempotency',
      id: 'key-1\norder-42',
      v: `${fingerprint}${MESSAGE_ID}`,
    });
  });

  test('commit() stores the record in the current state; replay finds the message up to 24 h − 1 ms', () => {
    const { idempotency, state } = holds();
    const ticket = idempotency.begin('key-1', 'order-42');
    expect(idempotency.replay(ticket, fingerprint, ACCEPTED)).toBeUndefined();
    idempotency.commit(ticket.slot, fingerprint, MESSAGE_ID);
    expect(state.idempotency['key-1\norder-42']).toBe(`${fingerprint}${MESSAGE_ID}`);
    idempotency.release(ticket);
    const retry = idempotency.begin('key-1', 'order-42');
    expect(idempotency.replay(retry, fingerprint, ACCEPTED + IDEMPOTENCY_TTL_MS - 1)).toBe(
      state.messages[MESSAGE_ID],
    );
    expect(idempotency.replay(retry, fingerprint, ACCEPTED + IDEMPOTENCY_TTL_MS)).toBeUndefined();
    expect(
      thrownDomainError(() => idempotency.replay(retry, bodyFingerprint({ to: '+15550123457' }), ACCEPTED)),
    ).toMatchObject({ code: 'idempotency_key_reused', status: 409 });
  });

  test('replay reads the state current at the call (a reset replaces it)', () => {
    let state = createEmptyState();
    const idempotency = new SendIdempotency(() => state);
    const ticket = idempotency.begin('key-1', 'order-42');
    idempotency.commit(ticket.slot, fingerprint, MESSAGE_ID);
    state = createEmptyState();
    expect(state.idempotency['key-1\norder-42']).toBeUndefined();
    expect(idempotency.replay(ticket, fingerprint, ACCEPTED)).toBeUndefined();
  });
});

/** POST /v1/messages whose body arrives only when `finish()` is called. */
function slowSend(emulator: ReturnType<typeof testEmulator>['emulator'], idempotencyKey: string) {
  let finish: () => void = () => {};
  const bytes = new TextEncoder().encode(JSON.stringify(templateSend()));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.slice(0, 10));
      finish = () => {
        controller.enqueue(bytes.slice(10));
        controller.close();
      };
    },
  });
  const answer = emulator.fetch(
    new Request('http://127.0.0.1:4010/v1/messages', {
      method: 'POST',
      body,
      duplex: 'half',
      headers: {
        authorization: `Bearer ${emulator.sandboxKey}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
    } as RequestInit),
  );
  return { answer, finish: () => finish() };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('Idempotency-Key holds over HTTP', () => {
  test('every request while the first is in flight is told 409, not only the second', async () => {
    const { emulator, send } = testEmulator();
    const first = slowSend(emulator, 'slow');
    await nextTurn();
    for (let attempt = 0; attempt < 2; attempt++) {
      const busy = await send(templateSend(), { idempotencyKey: 'slow' });
      expect(busy.status).toBe(409);
      expect(busy.body.error.code).toBe('idempotency_key_in_use');
    }
    first.finish();
    expect((await first.answer).status).toBe(202);
  });

  test('a request begun before a reset does not free the hold of one begun after it', async () => {
    const { emulator, send } = testEmulator();
    const beforeReset = slowSend(emulator, 'order-42');
    await nextTurn();
    await emulator.control.reset();
    const afterReset = slowSend(emulator, 'order-42');
    await nextTurn();
    beforeReset.finish();
    expect((await beforeReset.answer).status).toBe(202);
    const meanwhile = await send(templateSend(), { idempotencyKey: 'order-42' });
    expect(meanwhile.status).toBe(409);
    expect(meanwhile.body.error.code).toBe('idempotency_key_in_use');
    afterReset.finish();
    expect((await afterReset.answer).status).toBe(202);
  });
});
