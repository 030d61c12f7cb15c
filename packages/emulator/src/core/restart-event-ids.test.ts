import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WebhookEventType } from '@parley/sdk';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { failingDisk } from '../_testing/failing-disk';
import { createAppWithKey, templateSend, testEmulator } from '../_testing/test-emulator';
import { filePersistence } from '../store/file-persistence';

// Removed after all: the emulators on them are closed after each test, by the shared helper.
const dirs: string[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  vi.restoreAllMocks();
});
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A receiver that records every event it is sent and answers 500, so deliveries stay pending. */
async function recordingReceiver() {
  const received: { id: string; type: string; status?: string; messageId?: string }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const event = JSON.parse(body);
      received.push({
        id: request.headers['parley-event-id'] as string,
        type: event.type,
        status: event.data.message?.status,
        messageId: event.data.message?.id,
      });
      response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

/**
 * The first run, on a disk whose snapshots stop landing once `killed()` is called: what the
 * restart then finds is exactly what a SIGKILL before the next snapshot would leave.
 */
async function firstRun(events: WebhookEventType[]) {
  const dir = mkdtempSync(join(tmpdir(), 'parley-restart-'));
  dirs.push(dir);
  const disk = failingDisk();
  cleanups.push(() => {
    disk.state.snapshotsFail = false;
  });
  const running = testEmulator({ dataDir: dir }, filePersistence({ dataDir: dir, disk: disk.writes }));
  await running.emulator.ready;
  const receiver = await recordingReceiver();
  const [app] = (await running.emulator.control.listApplications()).data;
  await running.emulator.control.createEndpoint(app!.id, { url: receiver.url, events });
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const killed = () => {
    disk.state.snapshotsFail = true;
  };
  const restart = async () => {
    const second = testEmulator({ dataDir: dir });
    await second.emulator.ready;
    return second;
  };
  return { ...running, receiver, killed, restart };
}

/** Event ids per (message, status): more than one means a step was announced twice. */
function idsPerStep(received: { id: string; status?: string; messageId?: string }[]) {
  const ids = new Map<string, Set<string>>();
  for (const event of received) {
    const step = `${event.messageId} ${event.status}`;
    ids.set(step, (ids.get(step) ?? new Set()).add(event.id));
  }
  return [...ids.values()].map((set) => set.size);
}

describe('a restart resumes pending deliveries under their event ids', () => {
  test('a status step announced before the kill is not announced again; its delivery resumes with the same id', async () => {
    const first = await firstRun(['message.status_updated']);
    await first.send(templateSend());
    first.killed();
    await first.emulator.clock.advance(2_000);
    await first.emulator.idle();
    const [sent] = first.receiver.received;
    expect(sent).toMatchObject({ status: 'sent' });

    const second = await first.restart();
    await second.emulator.clock.advance(5_000);
    await second.emulator.idle();
    expect(
      first.receiver.received.filter((event) => event.status === 'sent').map((event) => event.id),
    ).toEqual([sent!.id, sent!.id]);
    expect(idsPerStep(first.receiver.received)).toEqual([1, 1]);
  });

  test('POST /v1/sandbox/events: the queued delivery is there after the kill, with the id the 202 gave', async () => {
    const first = await firstRun(['message.received']);
    first.killed();
    const queued = await first.call('POST', '/v1/sandbox/events', { body: { type: 'message.received' } });
    expect(queued).toMatchObject({ status: 202, body: { deliveries_queued: 1 } });

    const second = await first.restart();
    expect((await second.emulator.control.listDeliveries()).data).toEqual([
      expect.objectContaining({ event_id: queued.body.id, status: 'pending' }),
    ]);
    await second.emulator.idle();
    expect(first.receiver.received.map((event) => event.id)).toContain(queued.body.id);
    expect(new Set(first.receiver.received.map((event) => event.id))).toEqual(new Set([queued.body.id]));
  });

  test("a failed send's status event: its delivery is journaled with the message", async () => {
    const first = await firstRun(['message.status_updated']);
    first.killed();
    const accepted = await first.send(templateSend({ to: '+33612340000' }));
    expect(accepted.body.status).toBe('failed');
    const [queued] = (await first.emulator.control.listDeliveries()).data;

    const second = await first.restart();
    expect((await second.emulator.control.listDeliveries()).data).toEqual([
      expect.objectContaining({ id: queued!.id, event_id: queued!.event_id, status: 'pending' }),
    ]);
  });

  test('control API: an inbound message and its message.received delivery are journaled before the event can leave', async () => {
    const first = await firstRun(['message.received']);
    const { app } = await createAppWithKey(first.emulator, 'live');
    const connection = await first.emulator.control.createConnection(app.id, {
      phone_number: '+14155550100',
    });
    await first.emulator.control.createEndpoint(app.id, {
      url: first.receiver.url,
      events: ['message.received'],
    });
    first.killed();
    // The snapshot that would make it durable never lands (the kill): the call fails, the journal holds it.
    await expect(
      first.emulator.control.receiveInbound(connection.id, { from: '+33612345678', text: 'Bonjour' }),
    ).rejects.toThrow(/data dir/);
    const [queued] = (await first.emulator.control.listDeliveries({ applicationId: app.id })).data;

    const second = await first.restart();
    expect((await second.emulator.control.listDeliveries({ applicationId: app.id })).data).toEqual([
      expect.objectContaining({ id: queued!.id, event_id: queued!.event_id }),
    ]);
    expect((await second.emulator.control.listMessages({ applicationId: app.id })).data).toHaveLength(1);
  });
});
