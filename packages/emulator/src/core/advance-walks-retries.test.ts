import type { ServerResponse } from 'node:http';
import type { Message } from '@parley/sdk';
import { startReceiver, type TestReceiver } from '@parley/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { T0, testEmulator, textSend } from '../_testing/test-emulator';
import type { Emulator } from '../create-emulator';
import { DEFAULT_APPLICATION_ID } from './defaults';

// One advance runs every delivery attempt that falls due within it, each at its scheduled time
// (DESIGN §3: the k-th failure waits min(6 h, 30 s × 2^k)), and answers only after they ran:
// no `idle()`, no second advance. Real receivers on 127.0.0.1 answer each attempt.
const receivers: TestReceiver[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const receiver of receivers.splice(0)) await receiver.close();
});

const DAY = 86_400_000;
/** Seconds after the first attempt at which each of the 12 attempts is due (sums to 73,860 s). */
const SCHEDULE_S = [0, 60, 180, 420, 900, 1_860, 3_780, 7_620, 15_300, 30_660, 52_260, 73_860];
const iso = (ms: number) => new Date(ms).toISOString();
const stampsFrom = (start: number, seconds: readonly number[]) => seconds.map((s) => iso(start + s * 1_000));

/** A receiver answering the n-th request (from 0) with `statuses[n]`, the last one after that. */
async function receiverAnswering(...statuses: number[]): Promise<TestReceiver> {
  let count = 0;
  const receiver = await startReceiver((response: ServerResponse) => {
    const status = statuses[Math.min(count++, statuses.length - 1)]!;
    response.writeHead(status).end();
  });
  receivers.push(receiver);
  return receiver;
}

/** An endpoint of the default application for message status events, at `receiver`. */
async function endpointAt(
  emulator: Emulator,
  receiver: TestReceiver,
  applicationId = DEFAULT_APPLICATION_ID,
) {
  return emulator.control.createEndpoint(applicationId, {
    url: receiver.url,
    events: ['message.status_updated'],
  });
}

// A recipient ending in 0000 fails at once: its `failed` status event is the one delivery.
const failingSend = () => textSend({ to: '+33612340000' });

describe('one advance walks the whole retry schedule (in process)', () => {
  test('always 500: one advance of a day gives the 12 attempts at exactly the schedule, failed, before it resolves', async () => {
    const receiver = await receiverAnswering(500);
    const { emulator, send } = testEmulator();
    const endpoint = await endpointAt(emulator, receiver);
    expect((await send(failingSend())).status).toBe(202);

    await emulator.clock.advance(DAY);

    // Read before any idle(): the advance itself waited for every attempt.
    expect(receiver.requests).toHaveLength(12);
    const [delivery, ...others] = (await emulator.control.listDeliveries({ endpointId: endpoint.id })).data;
    expect(others).toEqual([]);
    expect(delivery).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(delivery!.attempts.map((attempt) => attempt.at)).toEqual(stampsFrom(T0, SCHEDULE_S));
    expect(delivery!.attempts.map((attempt) => attempt.status_code)).toEqual(Array(12).fill(500));
    expect(emulator.clock.now()).toBe(T0 + DAY);
  });

  test('500, 500, 200: delivered by the third attempt at T0 + 180 s, and nothing after it', async () => {
    const receiver = await receiverAnswering(500, 500, 200);
    const { emulator, send } = testEmulator();
    await endpointAt(emulator, receiver);
    await send(failingSend());

    await emulator.clock.advance(DAY);

    const [delivery] = (await emulator.control.listDeliveries()).data;
    expect(delivery).toMatchObject({ status: 'delivered', next_attempt_at: null });
    expect(delivery!.attempts.map((attempt) => [attempt.at, attempt.status_code])).toEqual([
      [iso(T0), 500],
      [iso(T0 + 60_000), 500],
      [iso(T0 + 180_000), 200],
    ]);
    expect(receiver.requests).toHaveLength(3);
  });

  test('an advance that ends between two attempts runs those due and stops at the window: the 6th is due at 1,860 s', async () => {
    const receiver = await receiverAnswering(500);
    const { emulator, send } = testEmulator();
    await endpointAt(emulator, receiver);
    await send(failingSend());

    await emulator.clock.advance(1_859_999);
    const [delivery] = (await emulator.control.listDeliveries()).data;
    expect(delivery!.attempts.map((attempt) => attempt.at)).toEqual(stampsFrom(T0, SCHEDULE_S.slice(0, 5)));
    expect(delivery!.next_attempt_at).toBe(iso(T0 + 1_860_000));

    await emulator.clock.advance(1);
    expect((await emulator.control.listDeliveries()).data[0]!.attempts).toHaveLength(6);
  });

  test('an advance of 21 h then idle() leaves the delivery failed after 12 attempts', async () => {
    const receiver = await receiverAnswering(500);
    const { emulator, send } = testEmulator();
    await endpointAt(emulator, receiver);
    await send(failingSend());

    await emulator.clock.advance(21 * 3_600_000);
    await emulator.idle();

    const [delivery] = (await emulator.control.listDeliveries()).data;
    expect(delivery!.status).toBe('failed');
    expect(delivery!.attempts.map((attempt) => attempt.at)).toEqual(stampsFrom(T0, SCHEDULE_S));
  });

  test('several endpoints at once: each gets its own 12 attempts at the schedule, and attempts due together run side by side', async () => {
    const failing = [
      await receiverAnswering(500),
      await receiverAnswering(503),
      await receiverAnswering(500),
    ];
    // The recovering receiver holds its first answer until the first failing one was called: were
    // attempts due at the same instant run one after the other, one of them would wait for the
    // other's answer (the cap only keeps a broken run from hanging).
    let sawOther: () => void = () => {};
    const otherCalled = new Promise<void>((resolve) => {
      sawOther = resolve;
    });
    let heldFirst = false;
    let count = 0;
    const recovering = await startReceiver((response) => {
      if (count++ > 0) return void response.writeHead(count === 2 ? 500 : 204).end();
      const cap = setTimeout(() => response.writeHead(500).end(), 5_000);
      void otherCalled.then(() => {
        clearTimeout(cap);
        heldFirst = true;
        response.writeHead(500).end();
      });
    });
    receivers.push(recovering);
    const { emulator, send } = testEmulator();
    const endpoints = [];
    for (const receiver of failing) endpoints.push(await endpointAt(emulator, receiver));
    const recoveringEndpoint = await endpointAt(emulator, recovering);
    const firstFailing = failing[0]!;
    const watch = setInterval(() => {
      if (firstFailing.requests.length > 0) sawOther();
    }, 1);
    closers.push(async () => clearInterval(watch));
    await send(failingSend());

    await emulator.clock.advance(DAY);

    expect(heldFirst).toBe(true);
    for (const [index, endpoint] of endpoints.entries()) {
      const [delivery] = (await emulator.control.listDeliveries({ endpointId: endpoint.id })).data;
      expect(delivery!.status).toBe('failed');
      expect(delivery!.attempts.map((attempt) => attempt.at)).toEqual(stampsFrom(T0, SCHEDULE_S));
      expect(failing[index]!.requests).toHaveLength(12);
    }
    const [recovered] = (await emulator.control.listDeliveries({ endpointId: recoveringEndpoint.id })).data;
    expect(recovered).toMatchObject({ status: 'delivered', next_attempt_at: null });
    expect(recovered!.attempts.map((attempt) => [attempt.at, attempt.status_code])).toEqual([
      [iso(T0), 500],
      [iso(T0 + 60_000), 500],
      [iso(T0 + 180_000), 204],
    ]);
  });

  test("a workspace's own clock: one advance of its clock walks its delivery's 12 attempts in its time", async () => {
    const receiver = await receiverAnswering(500);
    const { emulator } = testEmulator();
    const start = Date.parse('2027-02-03T04:05:06Z');
    const workspace = await emulator.control.createWorkspace({ name: 'w', clock: 'frozen', now: iso(start) });
    const app = await emulator.control.createApplication({
      name: 'App',
      environment: 'sandbox',
      workspace_id: workspace.id,
    });
    await endpointAt(emulator, receiver, app.id);
    const { key } = await emulator.control.createKey(app.id, {});
    const parleyFetch = (body: unknown) =>
      emulator.fetch(
        new Request('http://127.0.0.1:4010/v1/messages', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'idempotency-key': 'w-1',
          },
          body: JSON.stringify(body),
        }),
      );
    expect((await parleyFetch(failingSend())).status).toBe(202);

    await emulator.workspaceClock(workspace.id).advance(DAY);

    const [delivery] = (await emulator.control.listDeliveries({ applicationId: app.id })).data;
    expect(delivery!.status).toBe('failed');
    expect(delivery!.attempts.map((attempt) => attempt.at)).toEqual(stampsFrom(start, SCHEDULE_S));
    expect(receiver.requests).toHaveLength(12);
    expect(emulator.clock.now()).toBe(T0);
  });

  test('a receiver that calls the emulator while it answers (reads, sends) does not stall the advance; what it sends runs in it', async () => {
    let built: ReturnType<typeof testEmulator> | undefined;
    const seen: number[] = [];
    let sentByReceiver: string | undefined;
    const receiver: TestReceiver = await startReceiver((response) => {
      void (async () => {
        // Read before any await: the request just answered is the receiver's latest.
        const event = JSON.parse(receiver.requests.at(-1)!.body.toString());
        if (event.data.message.to !== '+33612340000') return void response.writeHead(204).end();
        const listed = await built!.emulator.fetch(new Request('http://127.0.0.1:4010/_emulator/deliveries'));
        seen.push(listed.status);
        // The first failing attempt also sends a message: sent at 2 s, delivered at 5 s of its time.
        sentByReceiver ??= (await built!.send(textSend())).body.id;
        response.writeHead(500).end();
      })();
    });
    receivers.push(receiver);
    built = testEmulator();
    const { emulator } = built;
    const endpoint = await endpointAt(emulator, receiver);
    await built.send(failingSend());

    await emulator.clock.advance(DAY);

    expect(seen).toEqual(Array(12).fill(200));
    const deliveries = (await emulator.control.listDeliveries({ endpointId: endpoint.id })).data;
    const failed = deliveries.filter((each) => each.status === 'failed');
    expect(failed.map((each) => each.attempts.length)).toEqual([12]);
    const statusOf = new Map(
      (await emulator.control.listEvents()).data.map((event) => [
        event.id,
        (event.data as { message: Message }).message.status,
      ]),
    );
    const statusDeliveries = deliveries
      .filter((each) => each.status === 'delivered')
      .map((each) => [statusOf.get(each.event_id), each.attempts.map((attempt) => attempt.at)]);
    expect(statusDeliveries.sort()).toEqual([
      ['delivered', [iso(T0 + 5_000)]],
      ['sent', [iso(T0 + 2_000)]],
    ]);
    expect((await built.call('GET', `/v1/messages/${sentByReceiver}`)).body.status).toBe('delivered');
  });
});

describe('over HTTP: POST /_emulator/clock/advance answers after the attempts', () => {
  test('in process: always 500, one advance of a day answers with the 12 attempts recorded', async () => {
    const receiver = await receiverAnswering(500);
    const { emulator, call, send } = testEmulator();
    await endpointAt(emulator, receiver);
    await send(failingSend());

    const answer = await call('POST', '/_emulator/clock/advance', { body: { ms: DAY } });
    const requestsWhenAnswered = receiver.requests.length;
    const deliveries = await call('GET', '/_emulator/deliveries');

    expect(answer).toMatchObject({ status: 200, body: { now: iso(T0 + DAY) } });
    expect(requestsWhenAnswered).toBe(12);
    expect(deliveries.body.data[0].status).toBe('failed');
    expect(deliveries.body.data[0].attempts.map((attempt: { at: string }) => attempt.at)).toEqual(
      stampsFrom(T0, SCHEDULE_S),
    );
  });
});
