import { startReceiver, type TestReceiver } from '@parley/test-utils';
import fc from 'fast-check';
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
  let unparsed = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      const text = decoder.decode(value, { stream: true });
      stream.raw += text;
      // Only the frames completed by this chunk are parsed.
      unparsed += text;
      const complete = unparsed.lastIndexOf('\n\n') + 2;
      // Split on \n only, as SSE does: a U+2028 in an item is not a line end.
      for (const match of unparsed.slice(0, complete).matchAll(/(?:^|\n)id: (\d+)\ndata: ([^\n]*)/g)) {
        stream.frames.push({ id: Number(match[1]), item: JSON.parse(match[2]!) });
      }
      unparsed = unparsed.slice(complete);
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

/** Any code point, lone surrogates included, or one of the characters that broke masking. */
const anyCharacter = fc.oneof(
  fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
  fc.constantFrom('\n', '\t', '_', 'a', 'Z', '9', '\\', '"', '%', '\u2028'),
);

describe('secrets in /_emulator/stream and /_emulator/activity', () => {
  /** What a user, a console or a script can read of the activity: the stream so far and the list. */
  async function everythingShown(call: ReturnType<typeof testEmulator>['call'], stream: { raw: string }) {
    const listed = await call('GET', '/_emulator/activity?limit=100');
    return `${stream.raw}\n${JSON.stringify(listed.body)}`;
  }

  test('a key or secret after a newline, a tab, an underscore or a letter, in a body, a path, a query or a header, shows in neither', async () => {
    const { emulator, call, send } = testEmulator();
    const stream = await openStream(emulator);
    const receiver = await startReceiver();
    receivers.push(receiver);
    const { app, key } = await createAppWithKey(emulator, 'sandbox');
    const endpoint = await call('POST', `/_emulator/applications/${app.id}/endpoints`, {
      body: { url: `${receiver.url}?token_${key}`, events: ['message.status_updated'] },
    });
    expect(endpoint.status).toBe(201);
    const secret: string = endpoint.body.secret;
    for (const before of ['\n', '\t', '_', 'a']) {
      const sent = await send(textSend({ text: `${before}${key}${before}${secret}` }), { key });
      expect(sent.status).toBe(202);
      const path = `/v1/x${encodeURIComponent(before)}${key}?q=${encodeURIComponent(before)}${secret}`;
      const headers = { 'x-note': `${before.trim()}${key}` };
      expect((await call('GET', path, { key, headers })).status).toBe(404);
      const named = await call('POST', '/_emulator/applications', {
        body: { name: `${before}${secret}`, environment: 'sandbox' },
      });
      expect(named.status).toBe(201);
    }
    await call('POST', '/_emulator/clock/advance', { body: { ms: 5_000 } });
    await emulator.idle();
    await stream.waitFor((frame) => frame.item.kind === 'delivery' && frame.item.status === 'delivered');
    await stream.waitFor((frame) => frame.item.kind === 'clock');

    const shown = await everythingShown(call, stream);
    for (const hidden of [key, key.slice(16), secret, secret.slice(6)]) expect(shown).not.toContain(hidden);
    // Masked, not dropped: the texts and paths are there with the secrets' masks.
    expect(shown).toContain(`\\n${key.slice(0, 16)}…\\nwhsec_…`);
    expect(shown).toContain(`"text":"_${key.slice(0, 16)}…_whsec_…"`);
    // After a letter the key's run reads on through `awhsec`: the secret's characters still go.
    expect(shown).toContain(`"text":"a${key.slice(0, 16)}…_…"`);
    expect(shown).toContain(`/v1/xa${key.slice(0, 16)}…`);
    expect(shown).toContain(`/v1/x_${key.slice(0, 16)}…`);
    await stream.close();
  });

  test('fuzzed: a key or secret between any two texts in a message or a path never shows', async () => {
    const { emulator, call, send } = testEmulator({ rateLimits: false });
    const stream = await openStream(emulator);
    const { key } = await createAppWithKey(emulator, 'sandbox');
    const secret = `whsec_${key.slice(12)}`;
    const around = fc.oneof(
      fc.string({ unit: anyCharacter, maxLength: 20 }),
      fc.constantFrom('', '\n', '\t', '_', 'a', '\\n', 'prl_live_', 'whsec_', '%5F'),
    );
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(around, around, fc.constantFrom(key, secret), async (before, after, hidden) => {
        const sent = await send(textSend({ text: `${before}${hidden}${after}` }), { key });
        if (sent.status === 202) accepted++;
        const path = `/v1/${encodeURIComponent(before.replace(/[\uD800-\uDFFF]/g, ''))}${hidden}`;
        await call('GET', path, { key });
      }),
      { numRuns: 150 },
    );
    await call('GET', '/v1/end-of-fuzz', { key });
    await stream.waitFor((frame) => frame.item.kind === 'request' && frame.item.path === '/v1/end-of-fuzz');
    expect(accepted).toBe(150);
    const shown = await everythingShown(call, stream);
    for (const hidden of [key.slice(16), secret.slice(6)]) expect(shown).not.toContain(hidden);
    await stream.close();
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
