import { createRequire } from 'node:module';
import { startReceiver, type TestReceiver } from '@parley/test-utils';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAppWithKey, T0, testEmulator, textSend } from '../_testing/test-emulator';
import { type Exchange, ExchangeRing, KEPT_EXCHANGE_BYTES, KEPT_EXCHANGES } from './_exchange-ring';
import { ActivityEntry } from './activity-feed';
import type { HarLog } from './har-types';

// har-validator (the HAR 1.2 JSON Schema) has no types: its promise API, as documented (it
// resolves with the data, rejects with `errors`).
const harValidator = createRequire(import.meta.url)('har-validator') as {
  har(data: unknown): Promise<unknown>;
};

/** Validates against the HAR 1.2 schema, failing with the validator's list of errors. */
async function expectValidHar(har: HarLog): Promise<void> {
  const errors = await harValidator.har(har).then(
    () => undefined,
    (error: { errors?: unknown }) => error.errors ?? error,
  );
  expect(errors).toBeUndefined();
}

test('the validator refuses what is not HAR 1.2 (so its pass means something)', async () => {
  const broken = { log: { version: '1.2', entries: [] } };
  await expect(harValidator.har(broken)).rejects.toMatchObject({ name: 'HARError' });
});

const FULL_KEY = /prl_(?:sandbox|live)_[A-Za-z0-9]{32}/;
const FULL_SECRET = /whsec_[A-Za-z0-9]{32}/;

let receiver: TestReceiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  await receiver.close();
});

describe('GET /_emulator/har', () => {
  test('the /v1 traffic and the delivery attempts as valid HAR 1.2, keys and secrets masked', async () => {
    const { emulator, call, send } = testEmulator();
    const endpoint = await emulator.control.createEndpoint(
      (await emulator.control.listApplications()).data[0]!.id,
      {
        url: receiver.url,
        events: ['message.status_updated'],
      },
    );
    // A secret typed where it does not belong is masked too.
    const sent = await send(textSend({ text: `mon secret ${endpoint.secret}` }));
    await call('GET', '/v1/status');
    await call('GET', `/v1/messages/${sent.body.id}?expand=${emulator.sandboxKey}`);
    await call('GET', '/v1/nowhere');
    await call('POST', '/v1/messages', {
      raw: '{nope',
      idempotencyKey: 'k-1',
      headers: { 'content-type': 'application/json' },
    });
    await emulator.clock.advance(5_000);
    await emulator.idle();

    const answer = await call('GET', '/_emulator/har?deliveries=true', { key: null });
    expect(answer.status).toBe(200);
    const har = answer.body as HarLog;
    await expectValidHar(har);
    const text = JSON.stringify(har);
    expect(text).not.toMatch(FULL_KEY);
    expect(text).not.toMatch(FULL_SECRET);

    const v1 = har.log.entries.filter((entry) => entry.request.url.includes('/v1/'));
    expect(
      v1.map((entry) => [entry.request.method, new URL(entry.request.url).pathname, entry.response.status]),
    ).toEqual([
      ['POST', '/v1/messages', 202],
      ['GET', '/v1/status', 200],
      ['GET', `/v1/messages/${sent.body.id}`, 200],
      ['GET', '/v1/nowhere', 404],
      ['POST', '/v1/messages', 400],
    ]);
    const [post, status] = v1;
    const header = (entry: typeof post, name: string) =>
      entry!.request.headers.find((each) => each.name === name)?.value;
    expect(header(post, 'authorization')).toBe(`Bearer ${emulator.sandboxKey.slice(0, 16)}…`);
    expect(JSON.parse(post!.request.postData!.text)).toEqual(textSend({ text: 'mon secret whsec_…' }));
    expect(JSON.parse(post!.response.content.text!)).toMatchObject({ id: sent.body.id, status: 'queued' });
    expect(post!.startedDateTime).toBe(new Date(T0).toISOString());
    expect(status!.response.headers).toContainEqual({ name: 'ratelimit-limit', value: '60' });
    expect(v1[2]!.request.queryString).toEqual([
      { name: 'expand', value: `${emulator.sandboxKey.slice(0, 16)}…` },
    ]);
    // A body that did not parse was never handed to a handler: not shown.
    expect(v1[4]!.request.postData).toBeUndefined();

    const attempts = har.log.entries.filter((entry) => entry.request.url === receiver.url);
    expect(attempts.map((entry) => [entry.startedDateTime, entry.response.status])).toEqual([
      ['2026-10-14T09:30:17.000Z', 200],
      ['2026-10-14T09:30:20.000Z', 200],
    ]);
    expect(attempts[0]!.request.postData!.text).toContain('"status":"sent"');
    // Without `deliveries` only the /v1 calls.
    const plain = (await emulator.control.har()).log.entries;
    expect(plain).toHaveLength(5);
  });

  test('since and workspace_id narrow it; a bad since or flag is 400, an unknown workspace 404', async () => {
    const { emulator, call, send } = testEmulator();
    await send(textSend());
    await emulator.clock.advance(60_000);
    const workspace = await emulator.control.createWorkspace({
      name: 'other',
      clock: 'frozen',
      now: '2027-01-01T00:00:00Z',
    });
    const other = await createAppWithKey(emulator, 'sandbox', { workspaceId: workspace.id });
    await call('GET', '/v1/status', { key: other.key });
    await call('GET', '/v1/status');

    const since = await emulator.control.har({ since: new Date(T0 + 60_000).toISOString() });
    expect(since.log.entries.map((entry) => entry.startedDateTime)).toEqual([
      new Date(T0 + 60_000).toISOString(),
      '2027-01-01T00:00:00.000Z',
    ]);
    const own = await emulator.control.har({ workspaceId: workspace.id });
    expect(own.log.entries.map((entry) => entry.startedDateTime)).toEqual(['2027-01-01T00:00:00.000Z']);
    expect((await call('GET', '/_emulator/har?since=soon', { key: null })).body.error).toMatchObject({
      code: 'validation_error',
      details: { field: 'since' },
    });
    expect((await call('GET', '/_emulator/har?deliveries=yes', { key: null })).body.error).toMatchObject({
      code: 'validation_error',
      details: { field: 'deliveries' },
    });
    expect((await call('GET', '/_emulator/har?workspace_id=nope', { key: null })).status).toBe(404);
  });

  test(`keeps the last ${KEPT_EXCHANGES} calls`, async () => {
    const { emulator, call } = testEmulator({ rateLimits: false });
    for (let index = 0; index < KEPT_EXCHANGES; index++) await call('GET', `/v1/nowhere-${index}`);
    const full = (await emulator.control.har()).log.entries;
    expect(full).toHaveLength(KEPT_EXCHANGES);
    expect(new URL(full[0]!.request.url).pathname).toBe('/v1/nowhere-0');
    await call('GET', '/v1/one-more');
    const after = (await emulator.control.har()).log.entries;
    expect(after).toHaveLength(KEPT_EXCHANGES);
    expect(new URL(after[0]!.request.url).pathname).toBe('/v1/nowhere-1');
  });
});

/** A lone surrogate as U+FFFD (String#toWellFormed): a URL cannot carry one. */
const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

test('fuzzed: a key or secret after and before any text, in a body, a query or a header, is masked in the HAR', async () => {
  const { emulator, call, send } = testEmulator({ rateLimits: false });
  const BASE62 = [...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'];
  const anyCharacter = fc.oneof(
    fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
    fc.constantFrom('\n', '\t', '_', 'a', '\\', '"', '%', '&', '='),
  );
  const printable = fc.integer({ min: 0x20, max: 0x7e }).map((point) => String.fromCharCode(point));
  const secret = fc.oneof(
    fc.string({ unit: fc.constantFrom(...BASE62), minLength: 32, maxLength: 32 }).map((body) => ({
      value: `prl_live_${body}`,
      hidden: body.slice(4),
    })),
    fc.string({ unit: fc.constantFrom(...BASE62), minLength: 32, maxLength: 32 }).map((body) => ({
      value: `whsec_${body}`,
      hidden: body,
    })),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('body', 'query', 'header'),
      fc.string({ unit: anyCharacter, maxLength: 12 }),
      fc.string({ unit: printable, maxLength: 12 }),
      secret,
      fc.string({ unit: anyCharacter, maxLength: 12 }),
      async (place, before, asciiBefore, { value, hidden }, after) => {
        if (place === 'body') await send(textSend({ text: `${before}${value}${after}` }));
        else if (place === 'query')
          await call('GET', `/v1/status?note=${encodeURIComponent(wellFormed(`${before}${value}${after}`))}`);
        else await call('GET', '/v1/status', { headers: { 'x-note': `${asciiBefore}${value}` } });
        const har = await emulator.control.har();
        expect(JSON.stringify(har.log.entries.at(-1))).not.toContain(hidden);
      },
    ),
    { numRuns: 300 },
  );
});

describe('ExchangeRing', () => {
  const activity = new ActivityEntry(
    1,
    {
      kind: 'request',
      application_ids: [],
      method: 'GET',
      path: '/v1/status',
      status: 200,
      request_id: 'req_0',
      key_prefix: null,
      duration_ms: 0,
    },
    0,
  );
  const exchange = (bodyBytes: number): Exchange => ({
    activity,
    requestHeaders: [],
    url: new URL('http://127.0.0.1/v1/status'),
    requestBody: undefined,
    status: 200,
    responseHeaders: {},
    responseBody: 'x'.repeat(bodyBytes),
  });

  test(`keeps at most ${KEPT_EXCHANGE_BYTES} bytes of bodies, dropping the oldest`, () => {
    const ring = new ExchangeRing();
    const quarter = KEPT_EXCHANGE_BYTES / 4;
    for (let index = 0; index < 4; index++) ring.add(exchange(quarter));
    expect(ring.list()).toHaveLength(4);
    expect(ring.bytes).toBe(KEPT_EXCHANGE_BYTES);
    ring.add(exchange(1));
    expect(ring.list()).toHaveLength(4);
    expect(ring.bytes).toBe(KEPT_EXCHANGE_BYTES - quarter + 1);
    // One exchange larger than the bound alone is still kept (the newest always is).
    ring.add(exchange(KEPT_EXCHANGE_BYTES + 1));
    expect(ring.list()).toHaveLength(1);
  });
});
