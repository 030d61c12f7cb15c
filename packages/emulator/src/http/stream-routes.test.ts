import { startReceiver, type TestReceiver } from '@parley/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { createAppWithKey, testEmulator, textSend } from '../_testing/test-emulator';
import type { Emulator } from '../create-emulator';

const receivers: TestReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

interface Frame {
  id: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON items
  item: any;
}

/** An open stream: its raw text so far, its parsed frames, and a wait for one that matches. */
async function openStream(emulator: Emulator, headers: Record<string, string> = {}) {
  const response = await emulator.fetch(new Request('http://127.0.0.1:4010/_emulator/stream', { headers }));
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const stream = { response, raw: '', frames: [] as Frame[] };
  const pending = new Set<() => void>();
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      stream.raw += decoder.decode(value, { stream: true });
      stream.frames = [...stream.raw.matchAll(/^id: (\d+)\ndata: (.*)$/gm)].map((match) => ({
        id: Number(match[1]),
        item: JSON.parse(match[2]!),
      }));
      for (const wake of pending) wake();
    }
  })();
  const waitFor = (match: (frame: Frame) => boolean) =>
    new Promise<Frame>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching frame in:\n${stream.raw}`)), 5_000);
      const check = () => {
        const found = stream.frames.find(match);
        if (!found) return;
        clearTimeout(timer);
        pending.delete(check);
        resolve(found);
      };
      pending.add(check);
      check();
    });
  return {
    ...stream,
    get raw() {
      return stream.raw;
    },
    get frames() {
      return stream.frames;
    },
    waitFor,
    close: () => reader.cancel(),
  };
}

describe('GET /_emulator/stream', () => {
  test('carries requests, message statuses, events and delivery attempts as they happen, secrets masked', async () => {
    const { emulator, call, send } = testEmulator();
    const stream = await openStream(emulator);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const receiver = await startReceiver();
    receivers.push(receiver);
    const { app, key } = await createAppWithKey(emulator, 'sandbox');
    const endpoint = await call('POST', `/_emulator/applications/${app.id}/endpoints`, {
      body: { url: receiver.url, events: ['message.status_updated'] },
    });
    const secret: string = endpoint.body.secret;
    // Secrets where they do not belong: a key in a path, a secret and a key in a message text.
    await call('GET', `/v1/${key}`, { key });
    const sent = await send(textSend({ text: `my key ${key} and ${secret}` }), { key });
    expect(sent.status).toBe(202);
    await call('POST', '/_emulator/clock/advance', { body: { ms: 5_000 } });
    await emulator.idle();

    const request = await stream.waitFor(
      (frame) => frame.item.kind === 'request' && frame.item.status === 202,
    );
    expect(request.item).toMatchObject({
      method: 'POST',
      path: '/v1/messages',
      application_ids: [app.id],
      key_prefix: key.slice(0, 16),
      request_id: expect.stringMatching(/^req_[0-9a-f]{32}$/),
      duration_ms: expect.any(Number),
    });
    const notFound = await stream.waitFor(
      (frame) => frame.item.kind === 'request' && frame.item.status === 404,
    );
    expect(notFound.item.path).toBe(`/v1/${key.slice(0, 16)}…`);
    for (const status of ['queued', 'sent', 'delivered']) {
      await stream.waitFor(
        (frame) =>
          frame.item.kind === 'message' &&
          frame.item.message.id === sent.body.id &&
          frame.item.status === status,
      );
    }
    await stream.waitFor(
      (frame) => frame.item.kind === 'event' && frame.item.type === 'message.status_updated',
    );
    const attempt = await stream.waitFor(
      (frame) => frame.item.kind === 'delivery' && frame.item.status === 'delivered',
    );
    expect(attempt.item.delivery.attempts[0]).toMatchObject({ status_code: 200, error: null });
    await stream.waitFor((frame) => frame.item.kind === 'clock');
    await stream.waitFor((frame) => frame.item.kind === 'control' && frame.item.path.endsWith('/endpoints'));

    expect(stream.raw).not.toContain(key);
    expect(stream.raw).not.toContain(secret);
    expect(stream.raw).not.toContain(secret.slice(6));
    expect(stream.raw).toContain('whsec_…');
    const ids = stream.frames.map((frame) => frame.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    await stream.close();

    const listed = await call('GET', '/_emulator/activity?limit=100');
    expect(JSON.stringify(listed.body)).not.toContain(key);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
  });

  test('a reconnecting client gets what it missed after its Last-Event-ID', async () => {
    const { emulator, call } = testEmulator();
    const first = await openStream(emulator);
    await call('POST', '/_emulator/clock/advance', { body: { ms: 1_000 } });
    const seen = await first.waitFor((frame) => frame.item.kind === 'clock');
    await first.close();
    await call('POST', '/_emulator/clock/advance', { body: { ms: 2_000 } });
    const resumed = await openStream(emulator, { 'last-event-id': String(seen.id) });
    const missed = await resumed.waitFor((frame) => frame.item.kind === 'clock');
    expect(missed.id).toBeGreaterThan(seen.id);
    expect(resumed.frames.every((frame) => frame.id > seen.id)).toBe(true);
    await resumed.close();
  });

  test('refuses a page of another site, like the rest of the control API', async () => {
    const { call } = testEmulator();
    for (const path of ['/_emulator/stream', '/_emulator/activity']) {
      const refused = await call('GET', path, { headers: { origin: 'https://evil.example' } });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('origin_not_allowed');
      const crossSite = await call('GET', path, { headers: { 'sec-fetch-site': 'cross-site' } });
      expect(crossSite.status).toBe(403);
    }
  });
});

describe('GET /_emulator/activity', () => {
  test('lists kept items newest first, filtered by application, type and status, a page at a time', async () => {
    const { emulator, call } = testEmulator();
    const { app, key } = await createAppWithKey(emulator, 'sandbox');
    for (let index = 0; index < 3; index++) await call('GET', '/v1/status', { key });
    await call('GET', '/v1/nothing-here', { key });
    const requests = await call('GET', `/_emulator/activity?application_id=${app.id}&type=request`);
    expect(requests.body.data.map((item: { status: number }) => item.status)).toEqual([404, 200, 200, 200]);
    const failures = await call('GET', `/_emulator/activity?type=request&status=4xx`);
    expect(failures.body.data).toHaveLength(1);
    const created = await call('GET', '/_emulator/activity?type=developer.application.created');
    expect(created.body.data[0]).toMatchObject({
      kind: 'event',
      event: { data: { application_id: app.id } },
    });
    const page = await call('GET', `/_emulator/activity?application_id=${app.id}&type=request&limit=2`);
    expect(page.body.has_more).toBe(true);
    const next = await call(
      'GET',
      `/_emulator/activity?application_id=${app.id}&type=request&limit=2&cursor=${page.body.next_cursor}`,
    );
    expect(next.body.data.map((item: { seq: number }) => item.seq)).toEqual(
      requests.body.data.slice(2).map((item: { seq: number }) => item.seq),
    );
    expect((await call('GET', '/_emulator/activity?cursor=nope')).status).toBe(400);
  });
});
