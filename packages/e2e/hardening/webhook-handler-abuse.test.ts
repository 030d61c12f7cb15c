import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { signWebhook, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@parley/sdk';
import { eventId, type NodeProcess, startNodeProcess, TEST_SECRET } from '@parley/test-utils';
import fc from 'fast-check';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordFigure } from './_figures';

// createWebhookHandler against signed events that are not what Parley sends: malformed envelopes and
// data (missing, null, arrays, wrong types, deep nesting) and types named like members of
// Object.prototype, to both handler forms of a receiver process on 127.0.0.1. Nothing may reach a
// handler, nothing may be answered 5xx, and the process (which catches no rejection) stays up.

const root = fileURLToPath(new URL('../../../', import.meta.url));
// One directory per test process, so parallel runs never rebuild under each other's feet.
const outDir = `${root}packages/e2e/node_modules/.cache/webhook-handler-server-${process.pid}`;
const FORMS = ['node', 'web'] as const;
type Form = (typeof FORMS)[number];
const SEED = Number(process.env.HARDENING_SEED ?? 20_261_123);

/** The receiver process, built from the current source with the `node` build's node:crypto HMAC. */
async function buildReceiver(): Promise<string> {
  const sdk = `${root}packages/sdk/src`;
  await build({
    entry: { server: `${root}packages/e2e/hardening/_webhook-handler-server.ts` },
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node22',
    splitting: false,
    dts: false,
    clean: true,
    silent: true,
    config: false,
    esbuildPlugins: [
      {
        name: 'parley-sdk-source',
        setup(bundle) {
          bundle.onResolve({ filter: /^@parley\/sdk$/ }, () => ({ path: `${sdk}/index.ts` }));
          bundle.onResolve({ filter: /^@parley\/sdk\/webhooks$/ }, () => ({
            path: `${sdk}/webhooks/index.ts`,
          }));
          bundle.onResolve({ filter: /^\.\/_hmac$/ }, () => ({ path: `${sdk}/webhooks/_hmac-node.ts` }));
        },
      },
    ],
  });
  return `${outDir}/server.js`;
}

let receiver: NodeProcess;
let base: string;
beforeAll(async () => {
  receiver = startNodeProcess(await buildReceiver(), [], {
    env: { ...(process.env as Record<string, string>), PARLEY_WEBHOOK_SECRET: TEST_SECRET },
  });
  await receiver.waitFor(/"port":\d+/, 'stdout');
  base = `http://127.0.0.1:${JSON.parse(receiver.stdout().split('\n')[0]!).port}`;
});
afterAll(() => {
  receiver?.child.kill();
  rmSync(outDir, { recursive: true, force: true });
});

/** What reached the receiver's handlers so far, and its resident memory. */
async function receiverState(): Promise<{ calls: Record<string, number>; rss: number }> {
  return (await fetch(`${base}/calls`)).json();
}

/** POSTs `body`, signed for event id `id`, to one handler form: the status, outcome and JSON body, if any. */
async function deliver(form: Form, body: string, id: string) {
  const headers = await signWebhook({ payload: body, secret: TEST_SECRET, id });
  const response = await fetch(`${base}/${form}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await response.text();
  const answer: unknown = text === '' ? null : JSON.parse(text);
  return { status: response.status, outcome: response.headers.get('parley-webhook-outcome'), answer };
}

// What a genuine event of each type needs to pass (docs/webhooks.md): the rest is never looked at.
const DATA: Record<WebhookEventType, object> = {
  'message.received': { message: { id: 'msg-1', status: 'received', text: 'Bonjour' } },
  'message.status_updated': { message: { id: 'msg-1', status: 'delivered' } },
  'connection.connected': { connection: { id: 'con-1', status: 'active' } },
  'connection.disconnected': { connection: { id: 'con-1', status: 'disconnected' } },
  'developer.application.created': { application_id: 'app-1', environment: 'live' },
  'webhook.test': { message: 'This is a test event from Parley.' },
};
type Kind = 'string' | 'boolean' | 'object';
type Checked = [path: string[], kind: Kind];
const ENVELOPE: Checked[] = [
  [['api_version'], 'string'],
  [['created_at'], 'string'],
  [['livemode'], 'boolean'],
  [['data'], 'object'],
];
const MESSAGE: Checked[] = [
  [['data', 'message'], 'object'],
  [['data', 'message', 'id'], 'string'],
  [['data', 'message', 'status'], 'string'],
];
const CONNECTION: Checked[] = [
  [['data', 'connection'], 'object'],
  [['data', 'connection', 'id'], 'string'],
];
/** Each checked field of a type's event, and the JSON type it must have (docs/webhooks.md). */
const CHECKED: Record<WebhookEventType, Checked[]> = {
  'message.received': [...ENVELOPE, ...MESSAGE],
  'message.status_updated': [...ENVELOPE, ...MESSAGE],
  'connection.connected': [...ENVELOPE, ...CONNECTION],
  'connection.disconnected': [...ENVELOPE, ...CONNECTION],
  'developer.application.created': [
    ...ENVELOPE,
    [['data', 'application_id'], 'string'],
    [['data', 'environment'], 'string'],
  ],
  'webhook.test': [...ENVELOPE, [['data', 'message'], 'string']],
};

/** A well-formed event of `type` as a plain object (any data object for a type that is not Parley's). */
function eventOf(type: string) {
  // Own keys only: `constructor` must not find Object as its data.
  const data = Object.hasOwn(DATA, type) ? DATA[type as WebhookEventType] : {};
  return {
    api_version: '2026-10-14',
    created_at: '2026-10-14T09:30:05Z',
    data,
    id: eventId(),
    livemode: false,
    type,
  };
}

// Deep nesting is spliced in as text in place of DEEP: JSON.stringify of such a value would
// overflow the stack.
const DEEP = 'deep nesting goes here';
const deepArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}null${'}'.repeat(depth)}`;

/** `event` with the field at `path` replaced (undefined removes it), as the body to sign. */
function bodyWith(event: ReturnType<typeof eventOf>, path: string[], value: unknown, deep = ''): string {
  const copy = structuredClone(event) as Record<string, unknown>;
  const parent = path.slice(0, -1).reduce((at, key) => at[key] as Record<string, unknown>, copy);
  if (value === undefined) delete parent[path.at(-1)!];
  else parent[path.at(-1)!] = value;
  return JSON.stringify(copy).replace(JSON.stringify(DEEP), deep);
}

/** A JSON value that is not of `kind` (an object here is a plain one, never null or an array). */
const notOf = (kind: Kind) =>
  fc
    .jsonValue({ maxDepth: 3 })
    .filter((value) =>
      kind === 'object'
        ? value === null || typeof value !== 'object' || Array.isArray(value)
        : typeof value !== kind,
    );

describe('createWebhookHandler under signed abuse, both forms, in a receiver process', () => {
  test('named malformed events: 400 invalid_payload each, no handler runs, the process stays up', async () => {
    const status = eventOf('message.status_updated');
    const cases: [string, string, string][] = [
      ['status update without data', bodyWith(status, ['data'], undefined), status.id],
      ['data null', bodyWith(status, ['data'], null), status.id],
      ['data an array', bodyWith(status, ['data'], [DATA['message.status_updated']]), status.id],
      ['message null', bodyWith(status, ['data', 'message'], null), status.id],
      ['message id a number', bodyWith(status, ['data', 'message', 'id'], 1), status.id],
      ['status an array', bodyWith(status, ['data', 'message', 'status'], ['read']), status.id],
      ['data 100,000 arrays deep', bodyWith(status, ['data'], DEEP, deepArrays(100_000)), status.id],
      [
        'message 50,000 objects deep',
        bodyWith(status, ['data', 'message'], DEEP, deepObject(50_000)),
        status.id,
      ],
      [
        'id 100,000 arrays deep',
        bodyWith(status, ['data', 'message', 'id'], DEEP, deepArrays(100_000)),
        status.id,
      ],
    ];
    const wrong: string[] = [];
    for (const form of FORMS) {
      for (const [label, body, id] of cases) {
        const { status: code, answer } = await deliver(form, body, id);
        const refused = code === 400 && (answer as { error?: string })?.error === 'invalid_payload';
        if (!refused) wrong.push(`${form} ${label}: ${code} ${JSON.stringify(answer)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(receiver.child.exitCode).toBeNull();
    expect((await receiverState()).calls).toEqual({});
  });

  test('every type named like a member of Object.prototype is answered as an unknown type: 204 unhandled', async () => {
    const names = Object.getOwnPropertyNames(Object.prototype);
    const answers: string[] = [];
    for (const form of FORMS) {
      for (const type of ['x.unknown', ...names]) {
        const event = eventOf(type);
        const { status, outcome } = await deliver(form, JSON.stringify(event), event.id);
        answers.push(`${form} ${type}: ${status} ${outcome}`);
      }
    }
    expect(answers).toEqual(
      FORMS.flatMap((form) => ['x.unknown', ...names].map((type) => `${form} ${type}: 204 unhandled`)),
    );
    expect(receiver.child.exitCode).toBeNull();
    expect((await receiverState()).calls).toEqual({});
  });

  test('random malformations of every checked field of every type: never a 5xx, never a handler', async () => {
    const runs = 2_000;
    const statuses = new Map<string, number>();
    const rssBefore = (await receiverState()).rss;
    const started = performance.now();
    const malformed = fc
      .constantFrom(...WEBHOOK_EVENT_TYPES)
      .chain((type) => fc.tuple(fc.constant(type), fc.constantFrom(...CHECKED[type])))
      .chain(([type, [path, kind]]) =>
        fc.record({
          form: fc.constantFrom(...FORMS),
          type: fc.constant(type),
          path: fc.constant(path),
          value: fc.oneof(notOf(kind), fc.constant(undefined)),
        }),
      );
    await fc.assert(
      fc.asyncProperty(malformed, async ({ form, type, path, value }) => {
        const event = eventOf(type);
        const { status, answer } = await deliver(form, bodyWith(event, path, value), event.id);
        const key = `${status} ${(answer as { error?: string } | null)?.error ?? ''}`.trim();
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        expect([status, answer]).toMatchObject([400, { error: 'invalid_payload' }]);
      }),
      { seed: SEED, numRuns: runs },
    );
    const elapsed = performance.now() - started;
    const { calls, rss } = await receiverState();
    expect(calls).toEqual({});
    expect(receiver.child.exitCode).toBeNull();

    // The control: the same process still handles a genuine event, in both forms.
    for (const form of FORMS) {
      const event = eventOf('webhook.test');
      expect(await deliver(form, JSON.stringify(event), event.id)).toEqual({
        status: 204,
        outcome: 'processed',
        answer: null,
      });
    }
    expect((await receiverState()).calls).toEqual({ 'on webhook.test': 2 });
    recordFigure({
      test: 'createWebhookHandler: signed malformed events',
      load: `${runs.toLocaleString('en')} signed events of all 6 types with one checked field missing or of another JSON type (seed ${SEED}), plus 9 named ones (data missing, null, an array; 100,000 arrays deep) and the ${Object.getOwnPropertyNames(Object.prototype).length} Object.prototype names as types, to handler.node() and the web handler of one receiver process on 127.0.0.1`,
      proved:
        'each malformed event is answered 400 invalid_payload and reaches no handler, each inherited name 204 unhandled; never a 5xx, and the process (which catches no rejection) stays up and handles a genuine event after',
      figures: `statuses ${[...statuses].map(([key, count]) => `${key} × ${count.toLocaleString('en')}`).join(', ')}; ${Math.round(elapsed)} ms (${(elapsed / runs).toFixed(2)} ms per delivery); receiver RSS ${Math.round(rssBefore / 1_048_576)} → ${Math.round(rss / 1_048_576)} MB`,
    });
  });
});
