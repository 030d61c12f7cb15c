import type { Message } from '@parley/sdk';
import { describe, expect } from 'vitest';
import type { Emulator } from './create-emulator';
import { SANDBOX_ACTIVE_CONNECTION_ID } from './domain/sandbox-fixtures';
import { createSandbox, type Sandbox } from './sandbox/create-sandbox';
import { createSandboxTest } from './vitest';

const START = Date.parse('2026-10-14T09:00:00Z');
const at = (ms: number) => new Date(START + ms).toISOString().replace('.000Z', 'Z');
const test = createSandboxTest({ sandbox: { now: START } });

const sendText = (sandbox: Pick<Sandbox, 'parley'>, text = 'Votre commande est prête.') =>
  sandbox.parley.messages.send({
    type: 'text',
    connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
    to: '+33612345678',
    text,
  });

describe('a sandbox per test, in order', () => {
  let first: { emulator: Emulator; sandbox: Sandbox; message: Message; globalNow: number };

  test('the first test has a workspace of its own, on a clock of its own', async ({ emulator, sandbox }) => {
    const message = await sendText(sandbox);
    await sandbox.advance('10s');
    expect(sandbox.clock.now()).toBe(START + 10_000);
    expect((await sandbox.parley.status.get()).workspace_id).toBe(sandbox.workspaceId);
    expect(await emulator.control.getWorkspaceClock(sandbox.workspaceId)).toEqual({
      workspace_id: sandbox.workspaceId,
      now: new Date(START + 10_000).toISOString(),
      mode: 'frozen',
      own_clock: true,
    });
    first = { emulator, sandbox, message, globalNow: emulator.clock.now() };
  });

  test('the next test has another workspace and clock, in the same worker emulator', async ({
    emulator,
    sandbox,
    parley,
  }) => {
    expect(emulator).toBe(first.emulator);
    expect(sandbox.workspaceId).not.toBe(first.sandbox.workspaceId);
    expect(sandbox.applicationId).not.toBe(first.sandbox.applicationId);
    expect(sandbox.apiKey).not.toBe(first.sandbox.apiKey);
    expect(parley).toBe(sandbox.parley);
    expect(sandbox.clock.now()).toBe(START);
    expect(emulator.clock.now()).toBe(first.globalNow);
    const error = await parley.messages.get(first.message.id).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
    expect((await emulator.control.listMessages({ applicationId: sandbox.applicationId })).data).toEqual([]);
  });
});

test('advance moves only the test’s clock, by the CLI’s durations', async ({
  emulator,
  sandbox,
  advance,
}) => {
  const other = await createSandbox(emulator, { now: START });
  try {
    const mine = await sendText(sandbox);
    const theirs = await sendText(other);
    await advance('5s');
    expect(sandbox.clock.now()).toBe(START + 5_000);
    expect(other.clock.now()).toBe(START);
    expect((await sandbox.parley.messages.get(mine.id)).status).toBe('delivered');
    expect((await other.parley.messages.get(theirs.id)).status).toBe('queued');
    await advance('1m');
    await advance(250);
    expect(sandbox.clock.now()).toBe(START + 65_250);
    await expect(advance('1.5s')).rejects.toThrow(
      'cannot read "1.5s" as a duration: use whole milliseconds, or whole numbers with units from the largest (d, h, m, s, ms), e.g. 500ms, 90s, 10m, 1h30m, 2d',
    );
    expect(other.clock.now()).toBe(START);
  } finally {
    await other.dispose();
  }
});

describe('receiver()', () => {
  test('hook.next resolves with each verified event, in event time', async ({
    sandbox,
    receiver,
    advance,
  }) => {
    const hook = await receiver();
    const message = await sendText(sandbox);
    await advance('5s');

    const sent = await hook.next('message.status_updated');
    const delivered = await hook.next('message.status_updated');
    expect([sent.data.message.status, sent.created_at]).toEqual(['sent', at(2_000)]);
    expect([delivered.data.message.status, delivered.created_at]).toEqual(['delivered', at(5_000)]);
    expect(sent.data.message.id).toBe(message.id);
    const events = (await sandbox.emulator.control.listEvents({ applicationId: sandbox.applicationId })).data;
    expect(events.map((event) => event.id).sort()).toEqual([sent.id, delivered.id].sort());
    expect(hook.received).toHaveLength(2);
    expect(hook.refused).toEqual([]);
    expect(hook.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks\/parley$/);
    expect(
      (await sandbox.emulator.control.listEndpoints({ applicationId: sandbox.applicationId })).data,
    ).toMatchObject([{ id: hook.endpointId, url: hook.url }]);
  });

  test('a delivery that fails verification is refused and never returned', async ({
    sandbox,
    receiver,
    trigger,
  }) => {
    const hook = await receiver();
    await sandbox.emulator.control.setChaos(hook.endpointId, { tampered_body: { next: 1 } });
    const triggered = await trigger('webhook.test');

    const event = await hook.next('webhook.test');
    expect(event.id).toBe(triggered.id);
    expect(hook.refused).toEqual(['signature_mismatch']);
    expect(hook.received.map((each) => each.id)).toEqual([triggered.id]);
  });

  test('hook.next rejects at once when nothing is on its way, saying what is pending', async ({
    receiver,
    trigger,
    advance,
  }) => {
    const hook = await receiver({ respond: () => 503 });
    await expect(hook.next()).rejects.toThrow(
      "No event has reached this receiver and none is on its way: no delivery to it is pending. Deliveries leave when the sandbox's clock reaches them: advance it first (await advance('5s')).",
    );
    await trigger('webhook.test');
    expect((await hook.next('webhook.test')).type).toBe('webhook.test');
    await expect(hook.next('webhook.test')).rejects.toThrow(
      `No webhook.test event has reached this receiver and none is on its way: 1 pending delivery leaves at ${new Date(START + 60_000).toISOString()} (the sandbox's time).`,
    );
    await advance('60s');
    expect((await hook.next('webhook.test')).type).toBe('webhook.test');
    expect(hook.received).toHaveLength(2);
  });
});

test('trigger queues a sandbox event to the test’s endpoints', async ({ trigger, receiver }) => {
  const hook = await receiver({ events: ['message.received'] });
  const triggered = await trigger('message.received', { 'data.message.text': 'STOP' });
  expect(triggered).toMatchObject({ type: 'message.received', deliveries_queued: 1 });

  const event = await hook.next('message.received');
  expect(event.id).toBe(triggered.id);
  expect(event.data.message.text).toBe('STOP');
  expect((await trigger('webhook.test')).deliveries_queued).toBe(0);
});

describe('a test that never awaits its hook', () => {
  let left: { sandbox: Sandbox; url: string; messageId: string };

  test('leaves deliveries in flight and a retry pending', async ({ sandbox, receiver, advance }) => {
    const hook = await receiver({ respond: () => 500 });
    const message = await sendText(sandbox);
    await advance('5s');
    left = { sandbox, url: hook.url, messageId: message.id };
  });

  test('leaks nothing into the next', async ({ emulator, sandbox, receiver }) => {
    const hook = await receiver();
    await emulator.idle();
    expect(
      (await emulator.control.listDeliveries({ applicationId: left.sandbox.applicationId })).data,
    ).toEqual([]);
    expect((await emulator.control.listMessages({ applicationId: left.sandbox.applicationId })).data).toEqual(
      [],
    );
    expect((await emulator.control.listEvents({ applicationId: left.sandbox.applicationId })).data).toEqual(
      [],
    );
    await expect(fetch(left.url, { method: 'POST', body: '{}' })).rejects.toThrow('fetch failed');
    expect(hook.received).toEqual([]);
    await expect(hook.next()).rejects.toThrow(/no delivery to it is pending/);
    expect((await emulator.control.listDeliveries({ applicationId: sandbox.applicationId })).data).toEqual(
      [],
    );
  });
});

describe.concurrent('concurrent tests in one worker', () => {
  for (const seconds of [2, 5]) {
    test(`sees only its own message and moves only its own clock (${seconds} s)`, async ({
      emulator,
      sandbox,
      advance,
    }) => {
      const message = await sendText(sandbox, `after ${seconds} s`);
      await advance(`${seconds}s`);
      expect(sandbox.clock.now()).toBe(START + seconds * 1_000);
      expect((await sandbox.parley.messages.get(message.id)).status).toBe(
        seconds === 2 ? 'sent' : 'delivered',
      );
      expect(
        (await emulator.control.listMessages({ applicationId: sandbox.applicationId })).data.map(
          (each) => each.id,
        ),
      ).toEqual([message.id]);
    });
  }
});
