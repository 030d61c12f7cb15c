import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_APPLICATION_ID,
  EMULATOR_ERROR_STATUS,
  type EmulatorErrorCode,
  type EmulatorServer,
  SANDBOX_ACTIVE_CONNECTION_ID,
  SANDBOX_DISCONNECTED_CONNECTION_ID,
  startEmulatorServer,
} from '@parley/emulator';
import type { ErrorBody, ListEnvelope } from '@parley/sdk';
import { startReceiver, type TestReceiver } from '@parley/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  expectPrismSaw,
  isPrismProblem,
  type PrismProxy,
  type RequestViolation,
  startPrismProxy,
} from './_prism-proxy';

// docs/emulator-api.yaml checked against the emulator's real answers by Prism, a validator nobody
// here wrote. Valid calls go through Prism in --errors mode: a request or an answer that breaks the
// description becomes Prism's own 422 or 500. Refused calls (each 400 case of each route) go through
// a second Prism that forwards everything and lists violations in `sl-violations`: the request must
// break the description where the emulator says it does (or nowhere, for a rule only the emulator
// can check) and the emulator's error answer must match it. At the end, every path and method of
// the description and every status it documents (but 500) must have been produced here.

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** What this file reads of a created record. */
interface Created {
  id: string;
}
/** What this file reads of a delivery. */
interface Delivery extends Created {
  event_id: string;
  status: string;
  attempts: { chaos?: string }[];
}
/** What this file reads of an activity item. */
interface Activity {
  seq: number;
  kind: string;
  status?: number | string;
  fault?: string;
  chaos?: string;
}

/** The parts of an OpenAPI description read here. */
interface DescribedResponse {
  $ref?: string;
  content?: Record<string, { schema: { $ref: string } }>;
}
/** An error schema: `allOf: [Error, { properties: { error: { properties: { code } } } }]`. */
interface DescribedSchema {
  enum?: string[];
  allOf?: {
    $ref?: string;
    properties?: { error: { properties: { code: { enum?: string[]; const?: string } } } };
  }[];
}
interface DescribedOperation {
  operationId: string;
  parameters?: { $ref?: string }[];
  responses: Record<string, DescribedResponse>;
}
interface Description {
  paths: Record<string, Partial<Record<Method, DescribedOperation>>>;
  components: { responses: Record<string, DescribedResponse>; schemas: Record<string, DescribedSchema> };
}
/** One operation of the description. */
interface Operation {
  /** `GET /clock` */
  name: string;
  method: Method;
  path: string;
  /** Whether it is a list (takes `limit`). */
  paged: boolean;
  responses: Record<string, DescribedResponse>;
}

const docs = fileURLToPath(new URL('../../../docs/', import.meta.url));
const DOCUMENT = join(docs, 'emulator-api.yaml');
const description = parse(readFileSync(DOCUMENT, 'utf8')) as Description;
const METHODS: readonly Method[] = ['get', 'post', 'put', 'patch', 'delete'];
const WITH_BODY = new Set<Method>(['post', 'put', 'patch']);
/** Statuses the emulator cannot be made to answer on purpose (a data dir that cannot be written). */
const UNPRODUCIBLE = new Set(['500']);
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const MAX_BODY_BYTES = 100 * 1024;

/** Every operation of the description. */
const operations: Operation[] = Object.entries(description.paths).flatMap(([path, item]) =>
  METHODS.flatMap((method) => {
    const operation = item[method];
    return operation
      ? [
          {
            name: `${method.toUpperCase()} ${path}`,
            method,
            path,
            paged: (operation.parameters ?? []).some((parameter) => parameter.$ref?.endsWith('/Limit')),
            responses: operation.responses,
          },
        ]
      : [];
  }),
);
/** Statuses produced through Prism, by operation. */
const produced = new Map<string, Set<string>>();
/** Statuses produced without Prism, where it cannot carry the answer (a stream). */
const producedDirectly = new Map<string, Set<string>>();

/** Two days before the last instant any clock can show: one advance reaches it, one more passes it. */
const START = Date.UTC(9999, 11, 30);
const LAST_INSTANT = '9999-12-31T23:59:59.999Z';

let main: EmulatorServer;
let receiver: TestReceiver;
let strict: PrismProxy;
let reporting: PrismProxy;
/** Prism in front of the same emulator with a description broken on purpose. */
let broken: PrismProxy;
let dataDir: string;
let brokenDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'parley-emulator-api-'));
  // A copy where a clock's mode may only be "real": the frozen emulator's "frozen" must be caught.
  brokenDir = mkdtempSync(join(tmpdir(), 'parley-emulator-api-broken-'));
  const text = readFileSync(DOCUMENT, 'utf8');
  const brokenText = text.replace(
    /( {4}ClockMode:\n {6}type: string\n {6}enum: )\[real, frozen\]/,
    '$1[real]',
  );
  expect(brokenText).not.toBe(text);
  writeFileSync(join(brokenDir, 'emulator-api.yaml'), brokenText);
  copyFileSync(join(docs, 'openapi.yaml'), join(brokenDir, 'openapi.yaml'));
  // With a data dir, health shows `persistence`.
  [main, receiver] = await Promise.all([
    startEmulatorServer({ port: 0, clock: 'frozen', now: START, dataDir, retrySchedule: 'none' }),
    startReceiver(),
  ]);
  const upstream = `${main.url}/_emulator`;
  [strict, reporting, broken] = await Promise.all([
    startPrismProxy({ document: DOCUMENT, upstream, errors: true }),
    startPrismProxy({ document: DOCUMENT, upstream, errors: false }),
    startPrismProxy({ document: join(brokenDir, 'emulator-api.yaml'), upstream, errors: true }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([strict?.close(), reporting?.close(), broken?.close()]);
  await Promise.all([main?.close(), receiver?.close()]);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(brokenDir, { recursive: true, force: true });
});

interface Call {
  id?: string | undefined;
  query?: Record<string, string>;
  /** A JSON body (sent as `JSON.stringify` writes it: Prism forwards the bytes it re-serialises). */
  body?: unknown;
  /** A body sent as it is. */
  raw?: string;
  /** Default `application/json` on POST, PUT and PATCH; `null` for none. */
  contentType?: string | null;
  headers?: Record<string, string>;
}

interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

function send(base: string, method: Method, template: string, call: Call): Promise<Response> {
  const url = new URL(`${base}${template.replace('{id}', encodeURIComponent(call.id ?? ''))}`);
  for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = { ...call.headers };
  const contentType =
    call.contentType === undefined && WITH_BODY.has(method) ? 'application/json' : call.contentType;
  if (contentType) headers['content-type'] = contentType;
  const body = call.raw ?? (call.body === undefined ? undefined : JSON.stringify(call.body));
  return fetch(url, { method: method.toUpperCase(), headers, ...(body === undefined ? {} : { body }) });
}

/** Sends through a Prism proxy, checks what Prism saw (see `expectPrismSaw`), records the status. */
async function exchange(
  proxy: PrismProxy,
  method: Method,
  template: string,
  call: Call,
  requestViolation: RequestViolation,
): Promise<Answer> {
  const response = await send(proxy.url, method, template, call);
  const text = await response.text();
  expectPrismSaw(
    response,
    text,
    requestViolation,
    `${method.toUpperCase()} ${template} ${JSON.stringify(call).slice(0, 300)}`,
  );
  const operation = `${method.toUpperCase()} ${template}`;
  const statuses = produced.get(operation) ?? new Set();
  statuses.add(String(response.status));
  produced.set(operation, statuses);
  return {
    status: response.status,
    body: text === '' ? undefined : JSON.parse(text),
    headers: response.headers,
  };
}

/** A call the description takes, through Prism in --errors mode. */
const valid = (method: Method, template: string, args: Call = {}) =>
  exchange(strict, method, template, args, null);

/** A call that must succeed with `status`; its body. */
async function ok<Body = unknown>(
  method: Method,
  template: string,
  status: number,
  args: Call = {},
): Promise<Body> {
  const answer = await valid(method, template, args);
  expect(answer.status, `${method.toUpperCase()} ${template}: ${JSON.stringify(answer.body)}`).toBe(status);
  // Prism has checked it against the description, whose shapes are those of `emulator.control`.
  return answer.body as Body;
}

interface Refusal {
  status: number;
  code: string;
  /** `details.field` and `details.reason`, when the answer names them. */
  field?: string;
  reason?: string;
  /** Where the description refuses the request (`null`: only the emulator can tell). */
  at: RequestViolation;
}

/** A call the emulator refuses, through the Prism that forwards everything: its exact error. */
async function refused(method: Method, template: string, args: Call, expected: Refusal): Promise<ErrorBody> {
  const answer = await exchange(reporting, method, template, args, expected.at);
  const label = `${method.toUpperCase()} ${template} ${JSON.stringify(args).slice(0, 200)}`;
  expect(answer.status, `${label}: ${JSON.stringify(answer.body)}`).toBe(expected.status);
  const { error } = answer.body as ErrorBody;
  expect(error.code, label).toBe(expected.code);
  if (expected.field !== undefined) expect(error.details.field, label).toBe(expected.field);
  if (expected.reason !== undefined) expect(error.details.reason, label).toBe(expected.reason);
  return answer.body as ErrorBody;
}

const invalid = (field: string, reason: string, at: string | null): Refusal => ({
  status: 400,
  code: 'validation_error',
  field,
  reason,
  at,
});

/** A body nested one level deeper than the emulator reads (64). */
const tooDeep = () => ({ deep: JSON.parse(`${'['.repeat(64)}${']'.repeat(64)}`) });

/** Records made along the way, for the tests that come after. */
const ids = {
  workspace: '',
  sharedWorkspace: '',
  liveApplication: '',
  liveKey: '',
  endpoint: '',
  connection: '',
};

// Hundreds of calls through another process: generous on 2 shared cores, where a run takes seconds.
describe('docs/emulator-api.yaml against the emulator, through Prism', { timeout: 120_000 }, () => {
  it('Prism catches an answer that breaks the description (the check itself works)', async () => {
    const response = await fetch(`${broken.url}/clock`);
    expect(response.status).toBe(500);
    expect(isPrismProblem(response)).toBe(true);
    const problem = (await response.json()) as { type: string; validation: unknown[] };
    expect(problem.type).toBe('https://stoplight.io/prism/errors#VIOLATIONS');
    expect(problem.validation).toEqual([
      expect.objectContaining({ location: ['response', 'body', 'mode'], severity: 'Error', code: 'enum' }),
    ]);
    // The same answer through the real description passes.
    expect(await ok('get', '/clock', 200)).toEqual({ now: expect.any(String), mode: 'frozen' });
  });

  it('health, reset and the global clock', async () => {
    expect(await ok('get', '/health', 200)).toMatchObject({ ok: true, persistence: { ok: true } });
    expect(await ok('post', '/reset', 200)).toEqual({ ok: true });
    const { now } = await ok<{ now: string }>('get', '/clock', 200);
    expect(await ok('post', '/clock/advance', 200, { body: { ms: 0 } })).toEqual({ now });
    await ok('post', '/clock/advance', 200, { body: { ms: 1000 } });
    const ms = (at: string | null) => invalid('ms', 'invalid_value', at);
    await refused('post', '/clock/advance', { body: { ms: '1d' } }, ms('body.ms'));
    await refused('post', '/clock/advance', { body: { ms: -1 } }, ms('body.ms'));
    await refused('post', '/clock/advance', { body: { ms: 1.5 } }, ms('body.ms'));
    await refused('post', '/clock/advance', { body: { ms: 31_622_400_001 } }, ms('body.ms'));
    await refused('post', '/clock/advance', { body: {} }, ms('body'));
    await refused('post', '/clock/advance', { body: [1] }, ms('body'));
  });

  it('workspaces and their clocks', async () => {
    const own = await ok<Created>('post', '/workspaces', 201, {
      body: { name: 'conformance', clock: 'frozen', now: '2026-10-14T12:00:00Z' },
    });
    expect(own).toMatchObject({ name: 'conformance', created_at: '2026-10-14T12:00:00Z', clock: 'frozen' });
    ids.workspace = own.id;
    ids.sharedWorkspace = (
      await ok<Created>('post', '/workspaces', 201, { body: { name: 'x'.repeat(200) } })
    ).id;
    await ok('post', '/workspaces', 201, {
      body: { name: 'dawn', clock: 'real', now: '1970-01-01T00:00:00Z' },
    });
    const last = await ok<Created>('post', '/workspaces', 201, {
      body: { name: 'last instant', clock: 'frozen', now: LAST_INSTANT },
    });
    const listed = await ok<ListEnvelope<Created>>('get', '/workspaces', 200, { query: { limit: '1' } });
    expect(listed).toMatchObject({ has_more: true, data: [expect.any(Object)] });
    await ok('get', '/workspaces', 200, { query: { limit: '100', cursor: String(listed.next_cursor) } });

    expect(await ok('get', '/workspaces/{id}/clock', 200, { id: ids.workspace })).toEqual({
      workspace_id: ids.workspace,
      now: '2026-10-14T12:00:00.000Z',
      mode: 'frozen',
      own_clock: true,
    });
    expect(
      await ok('post', '/workspaces/{id}/clock/advance', 200, { id: ids.workspace, body: { ms: 5000 } }),
    ).toEqual({
      workspace_id: ids.workspace,
      now: '2026-10-14T12:00:05.000Z',
    });
    expect(await ok('get', '/workspaces/{id}/clock', 200, { id: ids.sharedWorkspace })).toMatchObject({
      own_clock: false,
    });
    const shared = await valid('post', '/workspaces/{id}/clock/advance', {
      id: ids.sharedWorkspace,
      body: { ms: 1 },
    });
    expect(shared).toMatchObject({ status: 409, body: { error: { code: 'workspace_clock_shared' } } });
    await ok('post', '/workspaces/{id}/clock/advance', 200, { id: last.id, body: { ms: 0 } });
    await refused(
      'post',
      '/workspaces/{id}/clock/advance',
      { id: last.id, body: { ms: 1 } },
      invalid('ms', 'out_of_range', null),
    );
    await refused(
      'post',
      '/workspaces/{id}/clock/advance',
      { id: ids.workspace, body: { ms: 'soon' } },
      invalid('ms', 'invalid_value', 'body.ms'),
    );
    expect(await ok('post', '/workspaces/{id}/reset', 200, { id: ids.workspace })).toEqual({
      ok: true,
      workspace_id: ids.workspace,
    });

    const body = (fields: unknown) => ({ body: fields });
    await refused('post', '/workspaces', body([]), invalid('body', 'invalid_type', 'body'));
    await refused('post', '/workspaces', body({}), invalid('name', 'required', 'body'));
    await refused('post', '/workspaces', body({ name: '' }), invalid('name', 'invalid_type', 'body.name'));
    await refused(
      'post',
      '/workspaces',
      body({ name: 'x'.repeat(201) }),
      invalid('name', 'invalid_type', 'body.name'),
    );
    await refused(
      'post',
      '/workspaces',
      body({ name: 'w', clock: 'slow' }),
      invalid('clock', 'invalid_value', 'body.clock'),
    );
    await refused(
      'post',
      '/workspaces',
      body({ name: 'w', now: '2026-10-14T12:00:00Z' }),
      invalid('now', 'not_allowed', 'body'),
    );
    for (const now of ['0', '2026-10-14', '2026-02-30T00:00:00Z', '+275760-09-13T00:00:00.000Z', 1_000]) {
      await refused(
        'post',
        '/workspaces',
        body({ name: 'w', clock: 'frozen', now }),
        invalid('now', 'invalid_format', 'body.now'),
      );
    }
    // Well-formed, but before 1970-01-01T00:00:00Z: only the emulator can tell.
    for (const now of ['1969-12-31T23:59:59.999Z', '1970-01-01T00:59:59+01:00']) {
      await refused(
        'post',
        '/workspaces',
        body({ name: 'w', clock: 'frozen', now }),
        invalid('now', 'out_of_range', null),
      );
    }
  });

  it('applications and keys', async () => {
    const live = await ok<Created>('post', '/applications', 201, {
      body: { name: 'Live shop', environment: 'live', workspace_id: ids.workspace },
    });
    ids.liveApplication = live.id;
    const listed = await ok<ListEnvelope<Created>>('get', '/applications', 200, {
      query: { workspace_id: ids.workspace },
    });
    expect(listed.data).toEqual([live]);
    const notFound = await valid('post', '/applications', {
      body: { name: 'x', environment: 'sandbox', workspace_id: UNKNOWN_ID },
    });
    expect(notFound).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found', details: { field: 'workspace_id' } } },
    });

    const agreement = await valid('post', '/applications/{id}/keys', { id: ids.liveApplication, body: {} });
    expect(agreement).toMatchObject({ status: 409, body: { error: { code: 'agreement_required' } } });
    const liveKey = await ok<Created>('post', '/applications/{id}/keys', 201, {
      id: ids.liveApplication,
      body: { accept_agreement: true, scopes: ['messages.send', 'billing.read', 'messages.send'] },
    });
    expect(liveKey).toMatchObject({ environment: 'live', scopes: ['messages.send', 'billing.read'] });
    ids.liveKey = liveKey.id;
    // No body at all: every scope.
    const sandboxKey = await ok<Created>('post', '/applications/{id}/keys', 201, {
      id: DEFAULT_APPLICATION_ID,
    });
    await ok('post', '/applications/{id}/keys', 201, {
      id: DEFAULT_APPLICATION_ID,
      body: { scopes: Array.from({ length: 50 }, (_, index) => `scope.${index}`) },
    });
    expect(await ok('delete', '/keys/{id}', 204, { id: sandboxKey.id })).toBeUndefined();

    await refused('post', '/applications', { body: [] }, invalid('body', 'invalid_type', 'body'));
    await refused(
      'post',
      '/applications',
      { body: { environment: 'live' } },
      invalid('name', 'required', 'body'),
    );
    await refused(
      'post',
      '/applications',
      { body: { name: 'x'.repeat(201), environment: 'live' } },
      invalid('name', 'invalid_type', 'body.name'),
    );
    await refused(
      'post',
      '/applications',
      { body: { name: 'x', environment: 'staging' } },
      invalid('environment', 'invalid_value', 'body.environment'),
    );
    const keys = (body: unknown) => ({ id: DEFAULT_APPLICATION_ID, body });
    await refused('post', '/applications/{id}/keys', keys([]), invalid('body', 'invalid_type', 'body'));
    await refused(
      'post',
      '/applications/{id}/keys',
      keys({ scopes: 'all' }),
      invalid('scopes', 'invalid_type', 'body.scopes'),
    );
    await refused(
      'post',
      '/applications/{id}/keys',
      keys({ scopes: Array.from({ length: 51 }, () => 'messages.send') }),
      invalid('scopes', 'invalid_type', 'body.scopes'),
    );
    await refused(
      'post',
      '/applications/{id}/keys',
      keys({ scopes: [''] }),
      invalid('scopes', 'invalid_value', 'body.scopes.0'),
    );
    await refused(
      'post',
      '/applications/{id}/keys',
      keys({ scopes: ['x'.repeat(101)] }),
      invalid('scopes', 'invalid_value', 'body.scopes.0'),
    );
  });

  it('webhook endpoints, their chaos, test deliveries and replays', async () => {
    const events = ['message.status_updated', 'message.received', 'webhook.test'];
    const endpoint = await ok<Created & { url: string; created_at: string }>(
      'post',
      '/applications/{id}/endpoints',
      201,
      {
        id: DEFAULT_APPLICATION_ID,
        body: { url: receiver.url, events, secret: 'whsec_0123456789abcdefghijABCDEFGHIJ01' },
      },
    );
    expect(endpoint).toMatchObject({
      url: receiver.url,
      active: true,
      secret: 'whsec_0123456789abcdefghijABCDEFGHIJ01',
    });
    ids.endpoint = endpoint.id;
    const longUrl = `${receiver.url}?${'a'.repeat(2048 - receiver.url.length - 1)}`;
    // 200 characters at the limit, one of them outside the BMP: counted as one, not two.
    const longDescription = `${'→'.repeat(199)}😀`;
    const long = await ok<Created & { url: string; created_at: string }>(
      'post',
      '/applications/{id}/endpoints',
      201,
      {
        id: DEFAULT_APPLICATION_ID,
        body: { url: longUrl, events: ['webhook.test'], active: false, description: longDescription },
      },
    );
    expect(long.url).toHaveLength(2048);
    expect((long as Created & { description?: string }).description).toBe(longDescription);
    expect(await ok('delete', '/endpoints/{id}', 204, { id: long.id })).toBeUndefined();
    expect(
      (
        await ok<ListEnvelope<Created>>('get', '/endpoints', 200, {
          query: { application_id: DEFAULT_APPLICATION_ID },
        })
      ).data,
    ).toEqual([
      {
        id: ids.endpoint,
        application_id: DEFAULT_APPLICATION_ID,
        url: receiver.url,
        events,
        active: true,
        created_at: endpoint.created_at,
      },
    ]);
    await ok('patch', '/endpoints/{id}', 200, {
      id: ids.endpoint,
      body: { active: true, events: [...events, 'connection.connected'] },
    });
    expect(
      await ok('patch', '/endpoints/{id}', 200, {
        id: ids.endpoint,
        body: { description: 'parley listen → http://127.0.0.1:3000/webhooks' },
      }),
    ).toMatchObject({ description: 'parley listen → http://127.0.0.1:3000/webhooks' });
    expect(
      await ok('patch', '/endpoints/{id}', 200, { id: ids.endpoint, body: { description: null } }),
    ).not.toHaveProperty('description');
    expect(await ok('post', '/endpoints/{id}/rotate-secret', 200, { id: ids.endpoint })).toMatchObject({
      secret: expect.stringMatching(/^whsec_/),
    });

    // A duplicate on the next delivery: the test event's delivery then shows a chaos copy.
    const chaos = await ok('put', '/endpoints/{id}/chaos', 200, {
      id: ids.endpoint,
      body: {
        duplicate: { next: 1 },
        stale_timestamp: { rate: 0 },
        delayed: { rate: 0, delay_ms: 21_600_000 },
        seed: 4_294_967_295,
      },
    });
    expect(chaos).toEqual({
      endpoint_id: ids.endpoint,
      seed: 4_294_967_295,
      duplicate: { next: 1 },
      stale_timestamp: { rate: 0 },
      delayed: { rate: 0, delay_ms: 21_600_000 },
      applied: {},
    });
    await ok('get', '/endpoints/{id}/chaos', 200, { id: ids.endpoint });
    const tested = await ok<{ event_id: string }>('post', '/endpoints/{id}/test', 202, {
      id: ids.endpoint,
    });
    await main.emulator.idle();
    expect(await ok('get', '/endpoints/{id}/chaos', 200, { id: ids.endpoint })).toMatchObject({
      duplicate: { next: 0 },
      applied: { duplicate: 1 },
    });
    const deliveries = await ok<ListEnvelope<Delivery>>('get', '/deliveries', 200, {
      query: { endpoint_id: ids.endpoint },
    });
    const delivery = deliveries.data[0]!;
    expect(delivery).toMatchObject({ event_id: tested.event_id, status: 'delivered', chaos: ['duplicate'] });
    expect(delivery.attempts.map((attempt) => attempt.chaos ?? 'own')).toEqual(['own', 'duplicate']);
    const replay = await ok('post', '/deliveries/{id}/replay', 202, { id: delivery.id });
    expect(replay).toMatchObject({ event_id: tested.event_id, status: 'pending' });
    await main.emulator.idle();

    // A delivery held back a minute is pending: it cannot be replayed yet.
    await ok('put', '/endpoints/{id}/chaos', 200, {
      id: ids.endpoint,
      body: { delayed: { next: 1000, delay_ms: 60_000 } },
    });
    await ok('post', '/endpoints/{id}/test', 202, { id: ids.endpoint });
    const held = (
      await ok<ListEnvelope<Delivery>>('get', '/deliveries', 200, {
        query: { application_id: DEFAULT_APPLICATION_ID },
      })
    ).data[0]!;
    expect(held).toMatchObject({ status: 'pending', attempts: [] });
    await refused(
      'post',
      '/deliveries/{id}/replay',
      { id: held.id },
      invalid('delivery_id', 'pending', null),
    );
    expect(await ok('delete', '/endpoints/{id}/chaos', 204, { id: ids.endpoint })).toBeUndefined();
    expect(await ok('get', '/endpoints/{id}/chaos', 200, { id: ids.endpoint })).toEqual({
      endpoint_id: ids.endpoint,
      seed: null,
      applied: {},
    });
    await ok('post', '/clock/advance', 200, { body: { ms: 60_000 } });
    expect(await ok('get', '/idle', 200)).toEqual({ idle: true });

    // An attempt its receiver holds: not idle at the timeout, idle once it is answered.
    const answers: ServerResponse[] = [];
    const holding = await startReceiver((response) => answers.push(response));
    try {
      const slow = await ok<Created>('post', '/applications/{id}/endpoints', 201, {
        id: DEFAULT_APPLICATION_ID,
        body: { url: holding.url, events: ['webhook.test'] },
      });
      await ok('post', '/endpoints/{id}/test', 202, { id: slow.id });
      expect(await ok('get', '/idle', 200, { query: { timeout_ms: '1' } })).toEqual({
        idle: false,
        in_flight: 1,
      });
      expect(answers).toHaveLength(1);
      answers[0]!.end('ok');
      expect(await ok('get', '/idle', 200, { query: { timeout_ms: '60000' } })).toEqual({ idle: true });
      await ok('delete', '/endpoints/{id}', 204, { id: slow.id });
    } finally {
      for (const response of answers) if (!response.writableEnded) response.end();
      await holding.close();
    }
    for (const timeout of ['0', '60001', '1.5', 'abc']) {
      await refused(
        'get',
        '/idle',
        { query: { timeout_ms: timeout } },
        invalid('timeout_ms', 'invalid_value', 'query.timeout_ms'),
      );
    }
    // An integer in another notation: Prism reads 1000, the emulator takes digits only.
    await refused(
      'get',
      '/idle',
      { query: { timeout_ms: '1e3' } },
      invalid('timeout_ms', 'invalid_value', null),
    );

    const create = (body: unknown) => ({ id: DEFAULT_APPLICATION_ID, body });
    const path = '/applications/{id}/endpoints';
    await refused('post', path, create([]), invalid('body', 'not_an_object', 'body'));
    await refused('post', path, create({ url: receiver.url }), invalid('events', 'required', 'body'));
    await refused(
      'post',
      path,
      create({ url: receiver.url, events: [] }),
      invalid('events', 'required', 'body.events'),
    );
    await refused(
      'post',
      path,
      create({ url: receiver.url, events: ['message.sent'] }),
      invalid('events', 'unknown_event_type', 'body.events.0'),
    );
    await refused(
      'post',
      path,
      create({ url: receiver.url, events, active: 'yes' }),
      invalid('active', 'not_a_boolean', 'body.active'),
    );
    await refused(
      'post',
      path,
      create({ url: receiver.url, events, secret: 'whsec_short' }),
      invalid('secret', 'invalid_format', 'body.secret'),
    );
    await refused(
      'post',
      path,
      create({ url: receiver.url, events, description: `${'→'.repeat(200)}😀` }),
      invalid('description', 'too_long', 'body.description'),
    );
    await refused(
      'post',
      path,
      create({ url: receiver.url, events, description: 'parley listen\n→ forged line' }),
      invalid('description', 'control_character', 'body.description'),
    );
    await refused(
      'post',
      path,
      create({ url: receiver.url, events, description: '' }),
      invalid('description', 'empty', 'body.description'),
    );
    await refused(
      'post',
      path,
      create({ url: receiver.url, events, description: 7 }),
      invalid('description', 'not_a_string', 'body.description'),
    );
    await refused('post', path, create({ events }), invalid('url', 'required', 'body'));
    await refused('post', path, create({ url: '', events }), invalid('url', 'required', 'body.url'));
    await refused('post', path, create({ url: 'ftp://127.0.0.1/hook', events }), {
      status: 400,
      code: 'invalid_url',
      field: 'url',
      at: null,
    });
    await refused('post', path, create({ url: `${longUrl}a`, events }), {
      status: 400,
      code: 'invalid_url',
      field: 'url',
      at: 'body.url',
    });

    const update = (body: unknown) => ({ id: ids.endpoint, body });
    await refused('patch', '/endpoints/{id}', update([]), invalid('body', 'not_an_object', 'body'));
    await refused(
      'patch',
      '/endpoints/{id}',
      update({ url: receiver.url }),
      invalid('url', 'immutable', 'body'),
    );
    await refused(
      'patch',
      '/endpoints/{id}',
      update({ events: [] }),
      invalid('events', 'required', 'body.events'),
    );
    await refused(
      'patch',
      '/endpoints/{id}',
      update({ active: 1 }),
      invalid('active', 'not_a_boolean', 'body.active'),
    );
    await refused(
      'patch',
      '/endpoints/{id}',
      update({ description: `${'x'.repeat(200)}y` }),
      invalid('description', 'too_long', 'body.description'),
    );
    await refused(
      'patch',
      '/endpoints/{id}',
      update({ description: 'right\u202eto left' }),
      invalid('description', 'control_character', 'body.description'),
    );

    const chaosPath = '/endpoints/{id}/chaos';
    const setChaos = (body: unknown) => ({ id: ids.endpoint, body });
    await refused('put', chaosPath, setChaos([]), invalid('body', 'not_an_object', 'body'));
    await refused(
      'put',
      chaosPath,
      setChaos({ flood: { rate: 1 } }),
      invalid('flood', 'unknown_kind', 'body'),
    );
    for (const setting of [{ rate: 0.5, next: 1 }, {}, 1]) {
      await refused(
        'put',
        chaosPath,
        setChaos({ duplicate: setting }),
        invalid('duplicate', 'invalid_value', 'body.duplicate'),
      );
    }
    for (const rate of [1.5, -0.1, 'half']) {
      await refused(
        'put',
        chaosPath,
        setChaos({ wrong_secret: { rate } }),
        invalid('wrong_secret.rate', 'invalid_value', 'body.wrong_secret.rate'),
      );
    }
    for (const next of [0, 1001, 2.5]) {
      await refused(
        'put',
        chaosPath,
        setChaos({ tampered_body: { next } }),
        invalid('tampered_body.next', 'invalid_value', 'body.tampered_body.next'),
      );
    }
    await refused(
      'put',
      chaosPath,
      setChaos({ out_of_order: { next: 1, delay_ms: 5 } }),
      invalid('out_of_order.delay_ms', 'unknown_field', 'body.out_of_order'),
    );
    for (const delay of [0, 21_600_001]) {
      await refused(
        'put',
        chaosPath,
        setChaos({ delayed: { next: 1, delay_ms: delay } }),
        invalid('delayed.delay_ms', 'invalid_value', 'body.delayed.delay_ms'),
      );
    }
    for (const seed of [-1, 4_294_967_296, 'x']) {
      await refused('put', chaosPath, setChaos({ seed }), invalid('seed', 'invalid_value', 'body.seed'));
    }
  });

  it('sends as an application, live connections and inbound messages', async () => {
    const text = {
      type: 'text',
      connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
      to: '+33612345678',
      text: 'Bonjour',
    };
    const sent = await ok('post', '/applications/{id}/messages', 202, {
      id: DEFAULT_APPLICATION_ID,
      body: text,
    });
    expect(sent).toMatchObject({ status: 'queued', direction: 'outbound', text: 'Bonjour' });
    await ok('post', '/applications/{id}/messages', 202, {
      id: DEFAULT_APPLICATION_ID,
      body: {
        type: 'template',
        connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
        to: '+15550101002',
        template: { name: 'order_confirmation', language: 'fr', variables: ['Ada', 'A-42'] },
        client_reference: 'r'.repeat(128),
      },
    });
    expect(
      await ok('post', '/applications/{id}/messages', 202, {
        id: DEFAULT_APPLICATION_ID,
        body: { ...text, to: '+15550100000' },
      }),
    ).toMatchObject({ status: 'failed', error: { code: 'recipient_unreachable' } });
    const sendAs = (body: unknown) =>
      valid('post', '/applications/{id}/messages', { id: DEFAULT_APPLICATION_ID, body });
    expect(await sendAs({ ...text, to: '+15550101005' })).toMatchObject({
      status: 409,
      body: { error: { code: 'connection_inactive' } },
    });
    expect(await sendAs({ ...text, connection_id: SANDBOX_DISCONNECTED_CONNECTION_ID })).toMatchObject({
      status: 409,
      body: { error: { code: 'connection_inactive' } },
    });
    const limited = await sendAs({ ...text, to: '+15550101006' });
    expect(limited).toMatchObject({
      status: 429,
      body: { error: { code: 'rate_limited', details: { bucket: 'sends' } } },
    });
    expect(await sendAs({ ...text, connection_id: UNKNOWN_ID })).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found' } },
    });
    const refuse = (body: unknown, refusal: Refusal) =>
      refused('post', '/applications/{id}/messages', { id: DEFAULT_APPLICATION_ID, body }, refusal);
    await refuse([], invalid('body', 'invalid_type', 'body'));
    await refuse({ ...text, text: '' }, invalid('text', 'too_short', 'body.text'));
    await refuse({ ...text, text: 'x'.repeat(4097) }, invalid('text', 'too_long', 'body.text'));
    await refuse({ ...text, to: '0612345678' }, invalid('to', 'invalid_format', 'body.to'));
    await refuse(
      { ...text, connection_id: 'sandbox' },
      invalid('connection_id', 'invalid_format', 'body.connection_id'),
    );
    await refuse({ ...text, type: 'voice' }, invalid('type', 'invalid_value', 'body.type'));
    await refuse({ ...text, colour: 'red' }, invalid('colour', 'unknown_field', 'body'));
    await refuse(
      { ...text, client_reference: 'r'.repeat(129) },
      invalid('client_reference', 'too_long', 'body.client_reference'),
    );

    const connections = await ok<ListEnvelope<Created>>('get', '/applications/{id}/connections', 200, {
      id: DEFAULT_APPLICATION_ID,
    });
    expect(connections.data.map((connection) => connection.id)).toEqual([
      SANDBOX_ACTIVE_CONNECTION_ID,
      SANDBOX_DISCONNECTED_CONNECTION_ID,
    ]);
    const connection = await ok<Created>('post', '/applications/{id}/connections', 201, {
      id: ids.liveApplication,
      body: { phone_number: '+15550109999', name: 'n'.repeat(200) },
    });
    ids.connection = connection.id;
    await ok('post', '/applications/{id}/connections', 201, {
      id: ids.liveApplication,
      body: { phone_number: '+123456789012345' },
    });
    expect(
      (
        await ok<ListEnvelope<Created>>('get', '/applications/{id}/connections', 200, {
          id: ids.liveApplication,
        })
      ).data,
    ).toHaveLength(2);
    const inbound = await ok('post', '/connections/{id}/inbound', 201, {
      id: ids.connection,
      body: { from: '+33612345678', text: '🙂'.repeat(4096) },
    });
    expect(inbound).toMatchObject({ direction: 'inbound', status: 'received', from: '+33612345678' });
    expect(await ok('post', '/connections/{id}/disconnect', 200, { id: ids.connection })).toMatchObject({
      status: 'disconnected',
    });
    await ok('post', '/connections/{id}/disconnect', 200, { id: ids.connection });

    const connect = (body: unknown) => ({ id: ids.liveApplication, body });
    await refused(
      'post',
      '/applications/{id}/connections',
      { id: DEFAULT_APPLICATION_ID, body: { phone_number: '+15550109998' } },
      invalid('application_id', 'sandbox_application', null),
    );
    await refused(
      'post',
      '/applications/{id}/connections',
      connect([]),
      invalid('body', 'invalid_type', 'body'),
    );
    await refused(
      'post',
      '/applications/{id}/connections',
      connect({}),
      invalid('phone_number', 'invalid_format', 'body'),
    );
    for (const phone of ['0612345678', '+1234567', '+1234567890123456']) {
      await refused(
        'post',
        '/applications/{id}/connections',
        connect({ phone_number: phone }),
        invalid('phone_number', 'invalid_format', 'body.phone_number'),
      );
    }
    for (const name of ['', 'n'.repeat(201)]) {
      await refused(
        'post',
        '/applications/{id}/connections',
        connect({ phone_number: '+15550109998', name }),
        invalid('name', 'invalid_type', 'body.name'),
      );
    }
    const receive = (body: unknown) => ({ id: ids.connection, body });
    await refused('post', '/connections/{id}/inbound', receive([]), invalid('body', 'invalid_type', 'body'));
    await refused(
      'post',
      '/connections/{id}/inbound',
      receive({ text: 'x' }),
      invalid('from', 'invalid_format', 'body'),
    );
    await refused(
      'post',
      '/connections/{id}/inbound',
      receive({ from: '123', text: 'x' }),
      invalid('from', 'invalid_format', 'body.from'),
    );
    for (const text of ['', 'x'.repeat(4097)]) {
      await refused(
        'post',
        '/connections/{id}/inbound',
        receive({ from: '+33612345678', text }),
        invalid('text', 'invalid_type', 'body.text'),
      );
    }
    // The sandbox fixtures are not simulated connections.
    await refused(
      'post',
      '/connections/{id}/disconnect',
      { id: SANDBOX_ACTIVE_CONNECTION_ID },
      { status: 404, code: 'not_found', at: null },
    );
  });

  it('conversations: the customer writes (sandbox and live), the threads, one thread', async () => {
    const customer = '+33698765432';
    const write = (id: string, body: unknown) =>
      ok('post', '/applications/{id}/conversation/messages', 201, { id, body });
    expect(
      await write(DEFAULT_APPLICATION_ID, {
        connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
        from: customer,
        text: 'hi',
      }),
    ).toMatchObject({ direction: 'inbound', from: customer, text: 'hi', livemode: false });
    expect(
      await write(ids.liveApplication, {
        connection_id: ids.connection,
        from: customer,
        text: '🙂'.repeat(4096),
      }),
    ).toMatchObject({ direction: 'inbound', from: customer, livemode: true });
    await ok('post', '/applications/{id}/messages', 202, {
      id: DEFAULT_APPLICATION_ID,
      body: {
        type: 'template',
        connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
        to: customer,
        template: { name: 'hello_world', language: 'en' },
      },
    });
    const threads = await ok<ListEnvelope<{ customer: string }>>(
      'get',
      '/applications/{id}/conversations',
      200,
      {
        id: DEFAULT_APPLICATION_ID,
        query: { connection_id: SANDBOX_ACTIVE_CONNECTION_ID, limit: '100' },
      },
    );
    expect(threads.data[0]).toMatchObject({ customer, last_direction: 'outbound', message_count: 2 });
    await ok('get', '/applications/{id}/conversations', 200, { id: ids.liveApplication });
    const sandboxThread = await ok('get', '/applications/{id}/conversation', 200, {
      id: DEFAULT_APPLICATION_ID,
      query: { connection_id: SANDBOX_ACTIVE_CONNECTION_ID, number: customer },
    });
    expect(sandboxThread).toMatchObject({
      window: null,
      daily_cap: null,
      items: [{}, { template_body: 'Hello from Parley! This is a test message.' }],
    });
    const liveThread = await ok('get', '/applications/{id}/conversation', 200, {
      id: ids.liveApplication,
      query: { connection_id: ids.connection, number: customer },
    });
    expect(liveThread).toMatchObject({
      window: { open: true, remaining_ms: 86_400_000 },
      daily_cap: { limit: 1000 },
    });

    await refused(
      'get',
      '/applications/{id}/conversations',
      { id: DEFAULT_APPLICATION_ID, query: { limit: '0' } },
      invalid('limit', 'invalid_value', 'query.limit'),
    );
    await refused(
      'get',
      '/applications/{id}/conversation',
      { id: DEFAULT_APPLICATION_ID, query: { connection_id: SANDBOX_ACTIVE_CONNECTION_ID, number: '0612' } },
      invalid('number', 'invalid_format', 'query.number'),
    );
    await refused(
      'get',
      '/applications/{id}/conversation',
      { id: DEFAULT_APPLICATION_ID, query: { connection_id: ids.connection, number: customer } },
      { status: 404, code: 'not_found', at: null },
    );
    const refuse = (body: unknown, refusal: Refusal) =>
      refused(
        'post',
        '/applications/{id}/conversation/messages',
        { id: DEFAULT_APPLICATION_ID, body },
        refusal,
      );
    const typed = { connection_id: SANDBOX_ACTIVE_CONNECTION_ID, from: customer, text: 'hi' };
    await refuse([], invalid('body', 'invalid_type', 'body'));
    await refuse({ from: customer, text: 'hi' }, invalid('connection_id', 'required', 'body'));
    await refuse({ ...typed, from: '0612345678' }, invalid('from', 'invalid_format', 'body.from'));
    for (const text of ['', 'x'.repeat(4097)]) {
      await refuse({ ...typed, text }, invalid('text', 'invalid_type', 'body.text'));
    }
    await refuse({ ...typed, connection_id: UNKNOWN_ID }, { status: 404, code: 'not_found', at: null });
    await refuse(
      { ...typed, connection_id: SANDBOX_DISCONNECTED_CONNECTION_ID },
      { status: 409, code: 'connection_inactive', at: null },
    );
  });

  it('faults on /v1, and what the traffic left: messages, events, usage, magic numbers', async () => {
    const fault = await ok<Created>('post', '/faults', 201, {
      body: {
        method: 'get',
        path: '/v1/status',
        key_prefix: main.sandboxKey.slice(0, 16),
        times: 10_000,
        fault: { status: 503, code: 'service_unavailable', retry_after: 86_400 },
      },
    });
    expect(fault).toMatchObject({ object: 'fault', method: 'GET', remaining: 10_000, workspace_id: null });
    const byKey = await ok<Created>('post', '/faults', 201, {
      body: { key_id: ids.liveKey.toUpperCase(), path: '/v1/messages/*', fault: { hang: true } },
    });
    expect(byKey).toMatchObject({ key_id: ids.liveKey, workspace_id: ids.workspace, times: 1 });
    await ok('post', '/faults', 201, {
      body: { method: null, path: null, key_id: null, fault: { drop: true } },
    });
    await ok('post', '/faults', 201, { body: { path: '/v1/connections/', fault: { delay_ms: 600_000 } } });
    await ok('post', '/faults', 201, {
      body: { fault: { status: 599, code: 'a'.repeat(64), retry_after: 0 } },
    });
    // A /v1 call the first fault answers: its activity item names the fault.
    const faulted = await fetch(`${main.baseUrl}/status`, {
      headers: { authorization: `Bearer ${main.sandboxKey}` },
    });
    expect(faulted.status).toBe(503);
    await faulted.body?.cancel();
    const faults = await ok<ListEnvelope<{ remaining: number }>>('get', '/faults', 200, {
      query: { limit: '2' },
    });
    expect(faults.data.map((item) => item.remaining)).toEqual([9_999, 1]);
    await ok('get', '/faults', 200, { query: { cursor: String(faults.next_cursor) } });
    expect(await ok('delete', '/faults/{id}', 204, { id: byKey.id })).toBeUndefined();
    expect(await ok('delete', '/faults', 204)).toBeUndefined();
    expect((await ok<ListEnvelope<{ remaining: number }>>('get', '/faults', 200)).data).toEqual([]);

    const missingKey = await valid('post', '/faults', {
      body: { key_id: UNKNOWN_ID, fault: { drop: true } },
    });
    expect(missingKey).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found', details: { field: 'key_id' } } },
    });
    const hang = { hang: true };
    const refuse = (body: unknown, refusal: Refusal) => refused('post', '/faults', { body }, refusal);
    await refuse([], invalid('body', 'invalid_type', 'body'));
    await refuse({ fault: hang, colour: 'red' }, invalid('colour', 'unknown_field', 'body'));
    await refuse({ method: 'PO ST', fault: hang }, invalid('method', 'invalid_value', 'body.method'));
    await refuse({ method: 'A'.repeat(17), fault: hang }, invalid('method', 'invalid_value', 'body.method'));
    await refuse({ path: '/v2/messages', fault: hang }, invalid('path', 'invalid_value', 'body.path'));
    await refuse({ key_id: 'abc', fault: hang }, invalid('key_id', 'invalid_value', 'body.key_id'));
    await refuse(
      { key_prefix: 'sk_live_x', fault: hang },
      invalid('key_prefix', 'invalid_value', 'body.key_prefix'),
    );
    await refuse(
      { key_id: UNKNOWN_ID, key_prefix: 'prl_x', fault: hang },
      invalid('key_prefix', 'not_allowed', 'body'),
    );
    for (const times of [0, 10_001, 1.5]) {
      await refuse({ times, fault: hang }, invalid('times', 'invalid_value', 'body.times'));
    }
    await refuse({}, invalid('fault', 'required', 'body'));
    await refuse({ fault: 'hang' }, invalid('fault', 'invalid_type', 'body.fault'));
    await refuse({ fault: { hang: false } }, invalid('fault.hang', 'invalid_value', 'body.fault.hang'));
    await refuse({ fault: { drop: 1 } }, invalid('fault.drop', 'invalid_value', 'body.fault.drop'));
    for (const delay of [0, 600_001]) {
      await refuse(
        { fault: { delay_ms: delay } },
        invalid('fault.delay_ms', 'invalid_value', 'body.fault.delay_ms'),
      );
    }
    for (const status of [399, 600]) {
      await refuse(
        { fault: { status, code: 'x' } },
        invalid('fault.status', 'invalid_value', 'body.fault.status'),
      );
    }
    await refuse(
      { fault: { status: 503, code: 'Busy' } },
      invalid('fault.code', 'invalid_value', 'body.fault.code'),
    );
    for (const retryAfter of [-1, 86_401]) {
      await refuse(
        { fault: { status: 503, code: 'x', retry_after: retryAfter } },
        invalid('fault.retry_after', 'invalid_value', 'body.fault.retry_after'),
      );
    }
    await refuse({ fault: { status: 503 } }, invalid('fault', 'invalid_value', 'body.fault'));

    // The sent messages move on; their events and deliveries follow.
    await ok('post', '/clock/advance', 200, { body: { ms: 10_000 } });
    await main.emulator.idle();
    const messages = await ok<ListEnvelope<Created>>('get', '/messages', 200, {
      query: { application_id: DEFAULT_APPLICATION_ID, limit: '2' },
    });
    expect(messages).toMatchObject({ has_more: true, data: [expect.any(Object), expect.any(Object)] });
    await ok('get', '/messages', 200, { query: { cursor: String(messages.next_cursor), limit: '100' } });
    await refused('get', '/messages', { query: { cursor: 'zzz' } }, invalid('cursor', 'invalid_value', null));
    const events = await ok<ListEnvelope<{ type: string }>>('get', '/events', 200, {
      query: { limit: '100' },
    });
    // An endpoint test's webhook.test goes to that endpoint alone: it is not one of the events listed.
    expect(new Set(events.data.map((event) => event.type))).toEqual(
      new Set([
        'developer.application.created',
        'message.status_updated',
        'connection.connected',
        'message.received',
        'connection.disconnected',
      ]),
    );
    await ok('get', '/events', 200, { query: { application_id: ids.liveApplication } });
    const usage = await ok('get', '/usage', 200);
    expect(usage).toMatchObject({ object: 'usage', rate_limits_enabled: true });
    expect(await ok('get', '/usage', 200, { query: { application_id: ids.liveApplication } })).toMatchObject({
      keys: [{ key_id: ids.liveKey }],
      workspaces: [{ workspace_id: ids.workspace }],
    });
    expect(await valid('get', '/usage', { query: { application_id: UNKNOWN_ID } })).toMatchObject({
      status: 404,
    });
    const magic = await ok<ListEnvelope<unknown>>('get', '/magic-numbers', 200, {
      query: { limit: '100' },
    });
    expect(magic.data).toHaveLength(7);
  });

  it('the activity feed: every kind of item, as a list through Prism and as a stream', async () => {
    // Every kept item, page by page, each checked by Prism.
    const kept: Activity[] = [];
    let cursor: string | null = null;
    do {
      const page: ListEnvelope<Activity> = await ok<ListEnvelope<Activity>>('get', '/activity', 200, {
        query: { limit: '100', ...(cursor ? { cursor } : {}) },
      });
      kept.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(new Set(kept.map((item) => item.kind))).toEqual(
      new Set(['request', 'control', 'event', 'message', 'delivery', 'clock', 'reset']),
    );
    expect(kept.find((item) => item.kind === 'request' && item.fault)).toMatchObject({ status: 503 });
    expect(kept.find((item) => item.chaos)).toMatchObject({ kind: 'delivery', chaos: 'duplicate' });
    const more = await ok<ListEnvelope<Activity>>('get', '/activity', 200, {
      query: { limit: '1', type: 'control', status: '2xx' },
    });
    await ok('get', '/activity', 200, {
      query: { cursor: String(more.next_cursor), application_id: DEFAULT_APPLICATION_ID },
    });
    await refused('get', '/activity', { query: { cursor: 'zzz' } }, invalid('cursor', 'invalid_value', null));

    // Prism reads a whole answer before checking it, and a stream never ends: the stream is read
    // directly, and each of its items must be one the list above answered through Prism.
    const newest = kept[0]!.seq;
    const bySeq = new Map(kept.map((item) => [item.seq, item]));
    const stream = await fetch(`${main.url}/_emulator/stream`, {
      headers: { 'last-event-id': String(newest - 5) },
    });
    producedDirectly.set('GET /stream', new Set([String(stream.status)]));
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    const items = await readEvents(stream, 5);
    expect(items.map((item) => item.seq)).toEqual([newest - 4, newest - 3, newest - 2, newest - 1, newest]);
    for (const item of items) expect(item).toEqual(bySeq.get(item.seq));
  });

  it('what every route answers alike: 403 for another site, 404 for an id that is no UUID or is unknown, 413, 415, too deep', async () => {
    const origin = { origin: 'http://evil.test' };
    for (const { name: operation, method, path: template } of operations) {
      // Refused before its body or id is read: the request's own validity does not matter.
      const forbidden = await exchange(
        reporting,
        method,
        template,
        { id: UNKNOWN_ID, headers: origin },
        'unchecked',
      );
      expect(forbidden, operation).toMatchObject({
        status: 403,
        body: { error: { code: 'origin_not_allowed' } },
      });
      if (template.includes('{id}')) {
        await refused(
          method,
          template,
          { id: 'not-a-uuid' },
          { status: 404, code: 'not_found', at: 'path.id' },
        );
        await refused(
          method,
          template,
          { id: UNKNOWN_ID },
          { status: 404, code: 'not_found', at: 'unchecked' },
        );
      }
      if (!WITH_BODY.has(method)) continue;
      // The id of a record that exists where one is needed: a body's checks come after it.
      const id = idFor(template);
      await refused(
        method,
        template,
        { id, raw: 'x', contentType: 'text/plain' },
        {
          status: 415,
          code: 'unsupported_media_type',
          at: '',
        },
      );
      if (template === '/import') {
        // A bundle is not bound by the 100 KiB of other bodies (its own 64 MiB: see its test).
        await refused(
          method,
          template,
          { raw: paddedBody(MAX_BODY_BYTES + 1) },
          { ...invalid('format', 'unknown_format', '*'), at: '*' },
        );
      } else {
        await refused(
          method,
          template,
          { id, raw: paddedBody(MAX_BODY_BYTES + 1) },
          {
            status: 413,
            code: 'payload_too_large',
            at: '*',
          },
        );
      }
      const deep = await refused(
        method,
        template,
        { id, body: tooDeep() },
        {
          status: 400,
          code: 'validation_error',
          reason: 'too_deep',
          at: '*',
        },
      );
      expect(deep.error.details).toEqual({ field: 'body', reason: 'too_deep', max_depth: 64 });
    }
  });

  it('what Prism cannot carry, straight to the emulator: a body that is not JSON, a foreign Host', async () => {
    // Prism parses a JSON body itself and refuses one it cannot parse before forwarding it.
    for (const { name: operation, method, path: template } of operations) {
      if (!WITH_BODY.has(method)) continue;
      const response = await send(`${main.url}/_emulator`, method, template, {
        id: idFor(template),
        raw: '{"ms":',
      });
      expect(response.status, operation).toBe(400);
      expect(((await response.json()) as ErrorBody).error).toMatchObject({
        code: 'invalid_json',
        details: {},
      });
    }
    // Prism sets the upstream's Host itself; the DNS-rebinding guard is the server's.
    const answer = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const request = httpRequest(
        `${main.url}/_emulator/health`,
        { headers: { host: 'rebind.test' } },
        (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => {
            text += chunk;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      request.on('error', reject).end();
    });
    expect(answer).toMatchObject({ status: 403, body: { error: { code: 'host_not_allowed' } } });
  });

  it('lists at their page-size limits, the longest advance, and the global clock to its last instant', async () => {
    const lists = operations.filter((operation) => operation.paged);
    for (const { path: template } of lists) {
      const id = idFor(template);
      for (const limit of ['0', '101']) {
        await refused(
          'get',
          template,
          { id, query: { limit } },
          invalid('limit', 'invalid_value', 'query.limit'),
        );
      }
      await ok('get', template, 200, { id, query: { limit: '100' } });
    }
    // The longest advance, on a clock of its own: the global one is near its end.
    expect(
      await ok('post', '/workspaces/{id}/clock/advance', 200, {
        id: ids.workspace,
        body: { ms: 31_622_400_000 },
      }),
    ).toMatchObject({ workspace_id: ids.workspace });
    // The global clock to its last instant, then not one millisecond further.
    const { now } = await ok<{ now: string }>('get', '/clock', 200);
    const toEnd = Date.parse(LAST_INSTANT) - Date.parse(now);
    expect(await ok('post', '/clock/advance', 200, { body: { ms: toEnd } })).toEqual({ now: LAST_INSTANT });
    await refused('post', '/clock/advance', { body: { ms: 1 } }, invalid('ms', 'out_of_range', null));
    expect(await ok('get', '/clock', 200)).toEqual({ now: LAST_INSTANT, mode: 'frozen' });
    await main.emulator.idle();
  });

  it('export, import (the same state back) and the HAR of the traffic', async () => {
    const bundle = await ok<Record<string, unknown>>('get', '/export', 200, {
      query: { include_secrets: 'true' },
    });
    expect(bundle).toMatchObject({ format: 'parley-emulator-bundle', version: 1, secrets_included: true });
    await ok('get', '/export', 200, { query: { workspace_id: ids.workspace } });
    await refused(
      'get',
      '/export',
      { query: { include_secrets: 'maybe' } },
      invalid('include_secrets', 'invalid_format', 'query.include_secrets'),
    );
    await refused(
      'get',
      '/export',
      { query: { workspace_id: UNKNOWN_ID } },
      { status: 404, code: 'not_found', at: null },
    );
    expect(await ok('post', '/import', 200, { body: bundle })).toMatchObject({ ok: true, new_secrets: 0 });
    await refused(
      'post',
      '/import',
      { body: { ...bundle, version: 2 } },
      invalid('version', 'unsupported_version', 'body.version'),
    );
    await refused(
      'post',
      '/import',
      { body: { ...bundle, clock: { mode: 'frozen', now: 'soon' } } },
      invalid('clock.now', 'expected an ISO 8601 UTC time between 1970 and 9999', null),
    );
    expect(await ok('get', '/har', 200, { query: { deliveries: 'true' } })).toMatchObject({
      log: { version: '1.2' },
    });
    await refused('get', '/har', { query: { since: 'soon' } }, invalid('since', 'invalid_format', null));
    await refused(
      'get',
      '/har',
      { query: { deliveries: 'maybe' } },
      invalid('deliveries', 'invalid_format', 'query.deliveries'),
    );
    await refused(
      'get',
      '/har',
      { query: { workspace_id: UNKNOWN_ID } },
      { status: 404, code: 'not_found', at: null },
    );
    // A bundle may hold 64 MiB: a body declared one byte past it is refused before it is read. Sent
    // straight to the emulator: Prism would read (and parse) the whole body first.
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${main.url}/_emulator/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(64 * 1024 * 1024 + 1) },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
        request.destroy();
      });
      request.on('error', (error) => {
        if (!request.destroyed) reject(error);
      });
      request.write('{');
    });
    expect(status).toBe(413);
    producedDirectly.set('POST /import', new Set([String(status)]));
  });

  it('every operation of the description was driven, and produced every status it documents', () => {
    const driven = new Set([...produced.keys(), ...producedDirectly.keys()]);
    expect([...driven].sort()).toEqual(operations.map((operation) => operation.name).sort());
    const missing = operations.flatMap(({ name, responses }) =>
      Object.keys(responses)
        .filter((status) => !UNPRODUCIBLE.has(status))
        .filter((status) => !produced.get(name)?.has(status) && !producedDirectly.get(name)?.has(status))
        .map((status) => `${name} → ${status}`),
    );
    expect(missing).toEqual([]);
    // Only the stream's 200 and the import's 413 (64 MiB) came without Prism.
    expect([...producedDirectly]).toEqual([
      ['GET /stream', new Set(['200'])],
      ['POST /import', new Set(['413'])],
    ]);
  });

  it('each operation is the function of emulator.control of its name, and each function an operation', () => {
    // The activity stream is HTTP only (server-sent events); everything else is one control call.
    const httpOnly = ['streamActivity'];
    const operationIds = Object.values(description.paths).flatMap((item) =>
      METHODS.flatMap((method) => item[method]?.operationId ?? []),
    );
    expect(operationIds).toHaveLength(operations.length);
    expect(operationIds.filter((id) => !httpOnly.includes(id)).sort()).toEqual(
      Object.keys(main.emulator.control).sort(),
    );
  });

  it("the description's error codes are the emulator's, each under the status the emulator answers it with", () => {
    const { schemas, responses } = description.components;
    const named = <Value>(from: Record<string, Value>, ref: string): Value => from[ref.split('/').pop()!]!;
    for (const { name, responses: answers } of operations) {
      for (const [status, declared] of Object.entries(answers).filter(([code]) => Number(code) >= 400)) {
        const answer = declared.$ref ? named(responses, declared.$ref) : declared;
        // Each error answer is `Error` narrowed to its codes: allOf [Error, {…code: const | enum}].
        const [base, narrowed] = named(schemas, answer.content!['application/json']!.schema.$ref).allOf!;
        expect(base, `${name} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
        const code = narrowed!.properties!.error.properties.code;
        const codes = code.enum ?? [code.const!];
        for (const errorCode of codes) {
          expect(
            EMULATOR_ERROR_STATUS[errorCode as EmulatorErrorCode],
            `${name} ${status} ${errorCode}`,
          ).toBe(Number(status));
          expect(schemas.ErrorCode!.enum, errorCode).toContain(errorCode);
        }
      }
    }
  });
});

/** An existing record for each kind of path id, so a call gets as far as its body. */
function idFor(template: string): string | undefined {
  if (!template.includes('{id}')) return undefined;
  const collection = template.split('/')[1];
  const byCollection: Record<string, string | undefined> = {
    workspaces: ids.workspace,
    applications: template.endsWith('/connections') ? ids.liveApplication : DEFAULT_APPLICATION_ID,
    endpoints: ids.endpoint,
    connections: ids.connection,
    deliveries: UNKNOWN_ID,
    keys: ids.liveKey,
    faults: UNKNOWN_ID,
  };
  return byCollection[collection ?? ''] ?? UNKNOWN_ID;
}

/** A JSON object body of exactly `bytes` bytes. */
function paddedBody(bytes: number): string {
  const shell = '{"pad":""}';
  return `{"pad":"${'x'.repeat(bytes - shell.length)}"}`;
}

/** The first `count` events of a server-sent event stream, parsed from their `data:` lines. */
async function readEvents(response: Response, count: number): Promise<Activity[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const items: Activity[] = [];
  let buffered = '';
  try {
    while (items.length < count) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += value;
      let end = buffered.indexOf('\n\n');
      while (end !== -1 && items.length < count) {
        const data = buffered
          .slice(0, end)
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (data !== '') items.push(JSON.parse(data) as Activity);
        buffered = buffered.slice(end + 2);
        end = buffered.indexOf('\n\n');
      }
    }
  } finally {
    await reader.cancel();
  }
  return items;
}
