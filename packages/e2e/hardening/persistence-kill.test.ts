import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { type EmulatorProcess, freshBin, listAll, startEmulatorProcess } from './_emulator-process';
import { recordFigure } from './_figures';
import { eventIdsPerStep, recordingReceiver } from './_recording-receiver';
import { ACTIVE_CONNECTION } from './_request-arbitraries';

const KILLS = 20;
const SENDERS = 6;
const json = { 'content-type': 'application/json' };

const dataDir = mkdtempSync(join(tmpdir(), 'parley-hardening-kill-'));
const running: EmulatorProcess[] = [];
afterAll(() => {
  for (const process of running) process.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<EmulatorProcess> {
  const started = await startEmulatorProcess([
    '--data-dir',
    dataDir,
    '--clock',
    'frozen',
    '--rate-limits',
    'off',
  ]);
  running.push(started);
  return started;
}

const advance = (emulator: EmulatorProcess, ms: number) =>
  fetch(`${emulator.control}/clock/advance`, { method: 'POST', headers: json, body: JSON.stringify({ ms }) });

interface Delivery {
  id: string;
  event_id: string;
  status: string;
}

/**
 * Load until the process dies: sends (a third to a `…0000` recipient, whose failed status event
 * is queued at once), sandbox events, clock advances that make status steps and retries due, and
 * looks at the deliveries list to learn which were pending. Every answer is recorded; a request
 * cut by the kill promised nothing.
 */
async function loadUntilKilled(emulator: EmulatorProcess, cycle: number, seen: Seen): Promise<void> {
  let alive = true;
  const dead = emulator.exited.then(() => {
    alive = false;
  });
  const guard = async (work: () => Promise<void>) => {
    while (alive) {
      try {
        await work();
      } catch {
        return; // the kill cut the request
      }
    }
  };
  let sequence = 0;
  const sender = (lane: number) =>
    guard(async () => {
      const index = sequence++;
      const response = await fetch(`${emulator.base}/messages`, {
        method: 'POST',
        headers: {
          ...json,
          authorization: `Bearer ${emulator.key}`,
          'idempotency-key': `k${cycle}-${lane}-${index}`,
        },
        body: JSON.stringify({
          connection_id: ACTIVE_CONNECTION,
          to: index % 3 === 0 ? '+33612340000' : '+33612345678',
          type: 'text',
          text: `cycle ${cycle} n°${index}`,
        }),
      });
      if (response.status !== 202) throw new Error(`send answered ${response.status}`);
      const message = await response.json();
      seen.accepted.set(message.id, message.status === 'failed');
    });
  const clock = guard(async () => {
    // Mostly status steps (2 s, 5 s); now and then a minute, for the receiver's refused first attempts.
    const ms = Math.random() < 0.15 ? 61_000 : 500 + Math.floor(Math.random() * 2_500);
    if ((await advance(emulator, ms)).status !== 200) throw new Error('advance failed');
  });
  const sandbox = guard(async () => {
    const response = await fetch(`${emulator.base}/sandbox/events`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${emulator.key}` },
      body: JSON.stringify({ type: 'webhook.test' }),
    });
    if (response.status === 202) seen.sandboxEvents++;
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
  const watcher = guard(async () => {
    const page = await (await fetch(`${emulator.control}/deliveries?limit=100`)).json();
    for (const delivery of page.data as Delivery[]) {
      if (delivery.status === 'pending') seen.pending.set(delivery.id, delivery.event_id);
    }
  });
  // A random moment, once the load is running.
  setTimeout(() => emulator.child.kill('SIGKILL'), 150 + Math.random() * 350);
  await Promise.all([
    ...Array.from({ length: SENDERS }, (_, lane) => sender(lane)),
    clock,
    sandbox,
    watcher,
    dead,
  ]);
}

interface Seen {
  /** Message id → whether it was accepted as failed. */
  accepted: Map<string, boolean>;
  /** Delivery id → event id, for every delivery the list showed as pending before a kill. */
  pending: Map<string, string>;
  sandboxEvents: number;
}

describe('--data-dir under repeated SIGKILL with webhooks flowing', () => {
  test(`${KILLS} kills at random moments: nothing accepted is lost, no event is delivered under two ids`, async () => {
    const began = Date.now();
    await freshBin();
    const receiver = await recordingReceiver({ failFirst: 0.3 });
    const seen: Seen = { accepted: new Map(), pending: new Map(), sandboxEvents: 0 };
    let emulator = await start();
    const [app] = (await (await fetch(`${emulator.control}/applications?limit=1`)).json()).data;
    const endpoint = await fetch(`${emulator.control}/applications/${app.id}/endpoints`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ url: receiver.url, events: ['message.status_updated', 'webhook.test'] }),
    });
    expect(endpoint.status).toBe(201);

    let pendingChecked = 0;
    for (let cycle = 0; cycle < KILLS; cycle++) {
      await loadUntilKilled(emulator, cycle, seen);
      emulator = await start();
      const messages = new Set(
        (await listAll<{ id: string }>(emulator.control, '/messages')).map((m) => m.id),
      );
      expect([...seen.accepted.keys()].filter((id) => !messages.has(id))).toEqual([]);
      const deliveries = new Map(
        (await listAll<Delivery>(emulator.control, '/deliveries')).map((delivery) => [delivery.id, delivery]),
      );
      for (const [id, eventId] of seen.pending) expect(deliveries.get(id)?.event_id, id).toBe(eventId);
      pendingChecked += seen.pending.size;
      seen.pending.clear();
    }

    // Drain: every step due, every retry run (attempts leave after each advance, in real time);
    // then each step was delivered, and under one event id.
    const pendingAfterAnHour = async () => {
      await advance(emulator, 3_600_000);
      const deliveries = await listAll<Delivery>(emulator.control, '/deliveries');
      return deliveries.filter((delivery) => delivery.status === 'pending').length;
    };
    await expect.poll(pendingAfterAnHour, { timeout: 15_000, interval: 100 }).toBe(0);
    const steps = eventIdsPerStep(receiver.received);
    const twice = [...steps].filter(([, ids]) => ids.size > 1);
    expect(twice).toEqual([]);
    const missing = [...seen.accepted].flatMap(([id, failed]) =>
      (failed ? ['failed'] : ['sent', 'delivered']).filter((status) => !steps.has(`${id} ${status}`)),
    );
    expect(missing).toEqual([]);
    emulator.child.kill('SIGKILL');
    await receiver.close();

    const seconds = ((Date.now() - began) / 1000).toFixed(1);
    const resent = receiver.received.length - new Set(receiver.received.map((event) => event.eventId)).size;
    recordFigure({
      test: 'persistence: SIGKILL under load',
      load: `${KILLS} SIGKILLs at random moments under ${SENDERS} parallel senders, clock advances, sandbox events and a receiver refusing 30 % of first attempts`,
      proved:
        'every 202-accepted message is there after each restart; every delivery seen pending comes back with its event id; no status step is delivered under two event ids',
      figures: `${KILLS} kills; ${seen.accepted.size} messages checked; ${pendingChecked} pending-delivery sightings resumed with their event id; ${steps.size} status steps delivered, 0 under two ids; ${resent} same-id resends; ${seconds} s`,
    });
  });
});
