import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_APPLICATION_ID,
  type EmulatorServer,
  SANDBOX_ACTIVE_CONNECTION_ID,
  SANDBOX_DISCONNECTED_CONNECTION_ID,
  startEmulatorServer,
} from '@parley/emulator';
import { type ErrorBody, SANDBOX_EVENT_TYPES, SCOPES } from '@parley/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { expectPrismSaw, type PrismProxy, type RequestViolation, startPrismProxy } from './_prism-proxy';

// docs/openapi.yaml checked against the emulator's /v1 answers by Prism, as
// emulator-api-conformance.test.ts does for the control API: valid calls through Prism in --errors
// mode, refused ones through a Prism that forwards everything and lists what breaks the
// description. Every operation and every status it documents (but 500) must be produced here.

type Method = 'get' | 'post';
interface Operation {
  name: string;
  method: Method;
  path: string;
  statuses: string[];
}

const DOCUMENT = fileURLToPath(new URL('../../../docs/openapi.yaml', import.meta.url));
const description = parse(readFileSync(DOCUMENT, 'utf8')) as {
  paths: Record<string, Partial<Record<Method, { responses: Record<string, unknown> }>>>;
};
const operations: Operation[] = Object.entries(description.paths).flatMap(([path, item]) =>
  (['get', 'post'] as const).flatMap((method) => {
    const operation = item[method];
    return operation
      ? [
          {
            name: `${method.toUpperCase()} ${path}`,
            method,
            path,
            statuses: Object.keys(operation.responses),
          },
        ]
      : [];
  }),
);
/** Statuses the emulator cannot be made to answer on purpose. */
const UNPRODUCIBLE = new Set(['500']);
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const produced = new Map<string, Set<string>>();

let server: EmulatorServer;
let strict: PrismProxy;
let reporting: PrismProxy;
const keys = { all: '', statusOnly: '', connectionsOnly: '', live: '', limited: '' };
let liveConnection = '';

beforeAll(async () => {
  server = await startEmulatorServer({ port: 0, clock: 'frozen' });
  const upstream = `${server.url}/v1`;
  [strict, reporting] = await Promise.all([
    startPrismProxy({ document: DOCUMENT, upstream, errors: true }),
    startPrismProxy({ document: DOCUMENT, upstream, errors: false }),
  ]);
  const { control } = server.emulator;
  keys.all = server.sandboxKey;
  keys.statusOnly = (await control.createKey(DEFAULT_APPLICATION_ID, { scopes: ['system.status.read'] })).key;
  keys.connectionsOnly = (
    await control.createKey(DEFAULT_APPLICATION_ID, { scopes: ['connections.read'] })
  ).key;
  keys.limited = (await control.createKey(DEFAULT_APPLICATION_ID, { scopes: [...SCOPES] })).key;
  const live = await control.createApplication({ name: 'live', environment: 'live' });
  keys.live = (await control.createKey(live.id, { scopes: [...SCOPES], accept_agreement: true })).key;
  liveConnection = (await control.createConnection(live.id, { phone_number: '+15550199001' })).id;
}, 120_000);

afterAll(async () => {
  await Promise.all([strict?.close(), reporting?.close()]);
  await server?.close();
});

// Each test starts a new rate-limit window for every key (windows are aligned to clock minutes).
beforeEach(async () => {
  const { clock } = server.emulator;
  await clock.advance(60_000 - (clock.now() % 60_000));
});

interface Call {
  id?: string;
  query?: Record<string, string>;
  body?: unknown;
  raw?: string;
  contentType?: string;
  /** The API key (default: the sandbox key with every scope); `null` for none. */
  key?: string | null;
  idempotencyKey?: string;
}

interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

function send(base: string, method: Method, template: string, call: Call): Promise<Response> {
  const url = new URL(`${base}${template.replace('{id}', encodeURIComponent(call.id ?? ''))}`);
  for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = {};
  const key = call.key === undefined ? keys.all : call.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
  if (method === 'post') headers['content-type'] = call.contentType ?? 'application/json';
  const body = call.raw ?? (call.body === undefined ? undefined : JSON.stringify(call.body));
  return fetch(url, { method: method.toUpperCase(), headers, ...(body === undefined ? {} : { body }) });
}

/** Sends through a Prism proxy, checks what Prism saw, records the status. */
async function exchange(
  proxy: PrismProxy,
  method: Method,
  template: string,
  call: Call,
  requestViolation: RequestViolation,
): Promise<Answer> {
  const response = await send(proxy.url, method, template, call);
  const text = await response.text();
  const label = `${method.toUpperCase()} ${template} ${JSON.stringify(call).slice(0, 300)}`;
  expectPrismSaw(response, text, requestViolation, label);
  const operation = `${method.toUpperCase()} ${template}`;
  produced.set(operation, (produced.get(operation) ?? new Set()).add(String(response.status)));
  return {
    status: response.status,
    body: text === '' ? undefined : JSON.parse(text),
    headers: response.headers,
  };
}

/** A call the description takes, answered `status`: its body. */
async function ok<Body>(method: Method, template: string, status: number, call: Call = {}): Promise<Body> {
  const answer = await exchange(strict, method, template, call, null);
  expect(answer.status, `${method.toUpperCase()} ${template}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body as Body;
}

/** A call answered with an error (`at`: where the request breaks the description): its error. */
async function refused(
  method: Method,
  template: string,
  call: Call,
  expected: { status: number; code: string; field?: string; at: RequestViolation },
): Promise<ErrorBody['error']> {
  // A request the description takes goes through the Prism that refuses to forward broken ones.
  const proxy = expected.at === null ? strict : reporting;
  const answer = await exchange(proxy, method, template, call, expected.at);
  const label = `${method.toUpperCase()} ${template} ${JSON.stringify(call).slice(0, 200)}`;
  expect(answer.status, `${label}: ${JSON.stringify(answer.body)}`).toBe(expected.status);
  const { error } = answer.body as ErrorBody;
  expect(error.code, label).toBe(expected.code);
  if (expected.field !== undefined) expect(error.details.field, label).toBe(expected.field);
  return error;
}

const templateSend = (to = '+33612345678') => ({
  connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
  to,
  type: 'template',
  template: { name: 'order_confirmation', language: 'fr', variables: ['Ada', 'A-1042'] },
});
const textSend = {
  connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
  to: '+33612345678',
  type: 'text',
  text: 'Bonjour',
};

// Hundreds of calls through another process: generous on 2 shared cores, where a run takes seconds.
describe('docs/openapi.yaml against the emulator, through Prism', { timeout: 120_000 }, () => {
  it('GET /status', async () => {
    expect(await ok('get', '/status', 200)).toMatchObject({ environment: 'sandbox' });
    expect(await ok('get', '/status', 200, { key: keys.live })).toMatchObject({ environment: 'live' });
  });

  it('GET /connections and the templates of each', async () => {
    const first = await ok<{ next_cursor: string }>('get', '/connections', 200, { query: { limit: '1' } });
    expect(
      await ok('get', '/connections', 200, { query: { limit: '100', cursor: first.next_cursor } }),
    ).toMatchObject({ has_more: false, data: [{ id: SANDBOX_DISCONNECTED_CONNECTION_ID }] });
    await ok('get', '/connections', 200, { key: keys.live });
    const path = '/connections/{id}/templates';
    expect(await ok('get', path, 200, { id: SANDBOX_ACTIVE_CONNECTION_ID })).toMatchObject({
      data: [{ name: 'hello_world' }, { name: 'order_confirmation' }],
    });
    await ok('get', path, 200, { id: liveConnection, key: keys.live, query: { limit: '1' } });
    await refused('get', path, { id: UNKNOWN_ID }, { status: 404, code: 'not_found', at: null });
    await refused('get', path, { id: 'not-a-uuid' }, { status: 404, code: 'not_found', at: null });
    for (const template of ['/connections', path]) {
      const id = SANDBOX_ACTIVE_CONNECTION_ID;
      for (const limit of ['0', '101', 'x']) {
        await refused(
          'get',
          template,
          { id, query: { limit } },
          {
            status: 400,
            code: 'validation_error',
            field: 'limit',
            at: 'query.limit',
          },
        );
      }
      await refused(
        'get',
        template,
        { id, query: { cursor: 'not-ours' } },
        {
          status: 400,
          code: 'validation_error',
          field: 'cursor',
          at: null,
        },
      );
    }
  });

  it('POST /messages: accepted, replayed, failed, and every refusal', async () => {
    const accepted = await exchange(
      strict,
      'post',
      '/messages',
      { body: templateSend(), idempotencyKey: 'p-1' },
      null,
    );
    expect(accepted.status).toBe(202);
    const replayed = await exchange(
      strict,
      'post',
      '/messages',
      { body: templateSend(), idempotencyKey: 'p-1' },
      null,
    );
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(accepted.body);
    await ok('post', '/messages', 202, {
      body: { ...textSend, text: '🙂'.repeat(4096), client_reference: 'r'.repeat(128) },
      idempotencyKey: 'p-2',
    });
    expect(
      await ok('post', '/messages', 202, {
        body: { ...textSend, to: '+33600000000' },
        idempotencyKey: 'p-3',
      }),
    ).toMatchObject({ status: 'failed', error: { code: 'recipient_unreachable' } });

    const send = (body: unknown, idempotencyKey: string) => ({ body, idempotencyKey });
    await refused('post', '/messages', send({ ...templateSend(), to: '+33699999999' }, 'p-1'), {
      status: 409,
      code: 'idempotency_key_reused',
      at: null,
    });
    await refused(
      'post',
      '/messages',
      send({ ...textSend, connection_id: SANDBOX_DISCONNECTED_CONNECTION_ID }, 'p-4'),
      {
        status: 409,
        code: 'connection_inactive',
        at: null,
      },
    );
    await refused('post', '/messages', send({ ...textSend, connection_id: UNKNOWN_ID }, 'p-5'), {
      status: 404,
      code: 'not_found',
      at: null,
    });
    await refused('post', '/messages', send({ ...textSend, to: '+15550101006' }, 'p-6'), {
      status: 429,
      code: 'rate_limited',
      at: null,
    });
    const invalid = (body: unknown, field: string, at: string) =>
      refused('post', '/messages', send(body, `p-${field}-${at}`), {
        status: 400,
        code: 'validation_error',
        field,
        at,
      });
    await invalid({ ...textSend, to: '0612345678' }, 'to', 'body.to');
    await invalid({ ...textSend, text: '' }, 'text', 'body.text');
    await invalid({ ...textSend, text: 'x'.repeat(4097) }, 'text', 'body.text');
    await invalid(
      { ...textSend, client_reference: 'r'.repeat(129) },
      'client_reference',
      'body.client_reference',
    );
    await invalid({ ...textSend, extra: 1 }, 'extra', 'body');
    await invalid({ ...textSend, type: 'voice' }, 'type', 'body.type');
    await invalid({ ...textSend, connection_id: 'sandbox' }, 'connection_id', 'body.connection_id');
    // Well-formed, but the template has two variables: only the emulator knows.
    await refused(
      'post',
      '/messages',
      send({ ...templateSend(), template: { name: 'order_confirmation', language: 'fr' } }, 'p-vars'),
      {
        status: 400,
        code: 'validation_error',
        field: 'template.variables',
        at: null,
      },
    );
    const noKey = await refused(
      'post',
      '/messages',
      { body: textSend },
      {
        status: 400,
        code: 'idempotency_key_required',
        at: 'header',
      },
    );
    expect(noKey.details).toEqual({});
    await refused('post', '/messages', send(textSend, 'x'.repeat(256)), {
      status: 400,
      code: 'validation_error',
      field: 'Idempotency-Key',
      at: 'header.idempotency-key',
    });
    const deep = await refused(
      'post',
      '/messages',
      send({ text: JSON.parse(`${'['.repeat(64)}${']'.repeat(64)}`) }, 'p-deep'),
      {
        status: 400,
        code: 'validation_error',
        at: '*',
      },
    );
    expect(deep.details).toEqual({ field: 'body', reason: 'too_deep', max_depth: 64 });
    await refused(
      'post',
      '/messages',
      { ...send(textSend, 'p-plain'), raw: 'x', contentType: 'text/plain' },
      {
        status: 415,
        code: 'unsupported_media_type',
        at: '',
      },
    );
    await refused(
      'post',
      '/messages',
      send({ ...textSend, client_reference: 'x'.repeat(101 * 1024) }, 'p-big'),
      {
        status: 413,
        code: 'payload_too_large',
        at: '*',
      },
    );
  });

  it('POST /messages: 409 idempotency_key_in_use while the first request with the key is still arriving', async () => {
    // The first request goes to the emulator in process: it takes the key as soon as its headers are
    // read, then waits for its body. Prism would read the body whole before forwarding anything.
    const bytes = new TextEncoder().encode(JSON.stringify(templateSend()));
    let finish!: () => void;
    const slowBody = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 10));
        finish = () => {
          controller.enqueue(bytes.slice(10));
          controller.close();
        };
      },
    });
    const first = server.emulator.fetch(
      new Request(`${server.url}/v1/messages`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${keys.all}`,
          'content-type': 'application/json',
          'idempotency-key': 'p-slow',
        },
        body: slowBody,
        duplex: 'half',
      } as RequestInit),
    );
    await refused(
      'post',
      '/messages',
      { body: templateSend(), idempotencyKey: 'p-slow' },
      {
        status: 409,
        code: 'idempotency_key_in_use',
        at: null,
      },
    );
    finish();
    expect((await first).status).toBe(202);
  });

  it('GET /messages/{id}, outbound and inbound', async () => {
    const sent = await ok<{ id: string }>('post', '/messages', 202, {
      body: templateSend(),
      idempotencyKey: 'g-1',
    });
    await server.emulator.clock.advance(5_000);
    expect(await ok('get', '/messages/{id}', 200, { id: sent.id })).toMatchObject({ status: 'delivered' });
    const inbound = await server.emulator.control.receiveInbound(liveConnection, {
      from: '+33611112222',
      text: 'Bonjour',
    });
    expect(await ok('get', '/messages/{id}', 200, { id: inbound.id, key: keys.live })).toMatchObject({
      direction: 'inbound',
    });
    // Another application's message is not found, like an unknown one.
    await refused('get', '/messages/{id}', { id: inbound.id }, { status: 404, code: 'not_found', at: null });
    await refused(
      'get',
      '/messages/{id}',
      { id: 'not-a-uuid' },
      { status: 404, code: 'not_found', at: null },
    );
  });

  it('POST /sandbox/events for every type, and its refusals', async () => {
    for (const type of SANDBOX_EVENT_TYPES) {
      expect(await ok('post', '/sandbox/events', 202, { body: { type } })).toMatchObject({
        type,
        deliveries_queued: 0,
      });
    }
    await ok('post', '/sandbox/events', 202, {
      body: { type: 'message.received', overrides: { 'data.message.text': 'Où est ma commande ?' } },
    });
    const events = '/sandbox/events';
    for (const type of ['developer.application.created', 'nope']) {
      await refused(
        'post',
        events,
        { body: { type } },
        { status: 400, code: 'validation_error', field: 'type', at: 'body.type' },
      );
    }
    await refused(
      'post',
      events,
      { body: {} },
      { status: 400, code: 'validation_error', field: 'type', at: 'body' },
    );
    await refused(
      'post',
      events,
      { body: { type: 'webhook.test', overrides: { 'data.nope': 1 } } },
      {
        status: 400,
        code: 'validation_error',
        field: 'data.nope',
        at: null,
      },
    );
    await refused(
      'post',
      events,
      { key: keys.live, body: { type: 'webhook.test' } },
      { status: 403, code: 'sandbox_only', at: null },
    );
    await refused(
      'post',
      events,
      { raw: 'x', contentType: 'text/plain' },
      { status: 415, code: 'unsupported_media_type', at: '' },
    );
    await refused(
      'post',
      events,
      { body: { type: 'webhook.test', pad: 'x'.repeat(101 * 1024) } },
      {
        status: 413,
        code: 'payload_too_large',
        at: null,
      },
    );
  });

  it('401 without a key or with an unknown one, 403 without the scope, on every operation', async () => {
    for (const { method, path } of operations) {
      const call = {
        id: SANDBOX_ACTIVE_CONNECTION_ID,
        ...(method === 'post' ? { body: {}, idempotencyKey: 'auth' } : {}),
      };
      await refused(
        method,
        path,
        { ...call, key: null },
        { status: 401, code: 'missing_api_key', at: 'unchecked' },
      );
      await refused(
        method,
        path,
        { ...call, key: `prl_sandbox_${'Z'.repeat(32)}` },
        {
          status: 401,
          code: 'invalid_api_key',
          at: 'unchecked',
        },
      );
      const lacking = path === '/status' ? keys.connectionsOnly : keys.statusOnly;
      await refused(
        method,
        path,
        { ...call, key: lacking },
        { status: 403, code: 'insufficient_scope', at: 'unchecked' },
      );
    }
    await refused(
      'get',
      '/status',
      { key: keys.live.replace('prl_live_', 'prl_sandbox_') },
      {
        status: 401,
        code: 'invalid_api_key',
        at: null,
      },
    );
  });

  it('429 on each bucket, answered in the described format', async () => {
    // The key's windows filled straight at the emulator; the call past each limit through Prism.
    const direct = (path: string) =>
      fetch(`${server.url}/v1${path}`, { headers: { authorization: `Bearer ${keys.limited}` } }).then(
        (response) => response.body?.cancel(),
      );
    const limited = { status: 429, code: 'rate_limited', at: null } as const;
    const templates = '/connections/{id}/templates';
    for (let index = 0; index < 10; index++)
      await direct(`/connections/${SANDBOX_ACTIVE_CONNECTION_ID}/templates`);
    const past = await refused(
      'get',
      templates,
      { key: keys.limited, id: SANDBOX_ACTIVE_CONNECTION_ID },
      limited,
    );
    expect(past.details.bucket).toBe('templates');
    // Once `requests` is used up, every call of the key is refused on it, a templates call too.
    for (let index = 0; index < 60; index++) await direct('/status');
    for (const { method, path } of operations.filter((operation) => operation.path !== '/messages')) {
      const error = await refused(
        method,
        path,
        {
          key: keys.limited,
          id: SANDBOX_ACTIVE_CONNECTION_ID,
          ...(method === 'post' ? { body: { type: 'webhook.test' } } : {}),
        },
        limited,
      );
      expect(error.details.bucket, path).toBe('requests');
    }
  });

  it('every operation of the description was driven, and produced every status it documents', () => {
    expect([...produced.keys()].sort()).toEqual(operations.map((operation) => operation.name).sort());
    const missing = operations.flatMap(({ name, statuses }) =>
      statuses
        .filter((status) => !UNPRODUCIBLE.has(status) && !produced.get(name)?.has(status))
        .map((status) => `${name} → ${status}`),
    );
    expect(missing).toEqual([]);
  });
});
