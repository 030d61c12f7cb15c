import { createEmulator, type Emulator } from '@parley/emulator';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordFigure } from './_figures';
import {
  authorization,
  contentType,
  hostileBody,
  hostileRequestLine,
  idempotencyKey,
  invalidUtf8Body,
} from './_request-arbitraries';

const REQUEST_ID = /^req_[0-9a-f]{32}$/;
const prototypeKeys = () => Reflect.ownKeys(Object.prototype).map(String).sort();

let emulator: Emulator;
beforeAll(async () => {
  // Rate limits off: otherwise most requests would only ever meet a 429.
  emulator = createEmulator({ clock: 'frozen', rateLimits: false });
  await emulator.ready;
});
afterAll(() => emulator.close());

/** Everything a refusal must leave as it was, as one comparable text. */
async function stateDigest(): Promise<string> {
  const control = emulator.control;
  const all = { limit: 100 };
  return JSON.stringify([
    await control.listWorkspaces(all),
    await control.listApplications(all),
    await control.listEndpoints(all),
    (await control.listDeliveries(all)).data.map((delivery) => [delivery.id, delivery.status]),
    (await control.listMessages(all)).data.length,
    await control.getClock(),
  ]);
}

interface Outcome {
  status: number;
  problems: string[];
}

/** Sends one request in process and lists every way its answer breaks the rules. */
async function check(request: Request): Promise<Outcome> {
  // A HEAD answer has no body by definition (RFC 9110 §9.3.2); its status and headers still count.
  const bodiless = request.method === 'HEAD';
  const response = await emulator.fetch(request);
  const problems: string[] = [];
  const text = await response.text();
  if (response.status >= 500) problems.push(`status ${response.status}`);
  const requestId = response.headers.get('x-request-id');
  if (!requestId || !REQUEST_ID.test(requestId)) problems.push(`request id ${requestId}`);
  if (response.status >= 400 && !bodiless) {
    try {
      const error = JSON.parse(text).error;
      if (typeof error?.code !== 'string' || typeof error.message !== 'string')
        problems.push('no error code/message');
      if (error?.request_id !== requestId) problems.push('body request_id differs from header');
    } catch {
      problems.push(`error body is not JSON: ${text.slice(0, 80)}`);
    }
  }
  return { status: response.status, problems };
}

describe('fuzzing every route (in process)', () => {
  test('10,000 hostile requests: never a 5xx, always the error format, state unchanged by refusals', async () => {
    const before = prototypeKeys();
    const statuses = new Map<number, number>();
    let requests = 0;
    let refusals = 0;
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(
        hostileRequestLine,
        fc.option(hostileBody, { nil: undefined }),
        contentType,
        authorization(emulator.sandboxKey),
        fc.option(idempotencyKey, { nil: undefined }),
        async ({ method: verb, path }, body, type, auth, key) => {
          const headers = new Headers();
          if (type) headers.set('content-type', type);
          if (auth) headers.set('authorization', auth);
          if (key !== undefined) headers.set('idempotency-key', key);
          const hasBody = body !== undefined && verb !== 'GET' && verb !== 'HEAD';
          const digest = await stateDigest();
          const outcome = await check(
            new Request(`http://127.0.0.1:4010${path}`, {
              method: verb,
              headers,
              ...(hasBody ? { body } : {}),
            }),
          );
          requests++;
          statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
          expect(outcome.problems, `${verb} ${path}`).toEqual([]);
          if (outcome.status >= 400) {
            refusals++;
            expect(await stateDigest(), `${verb} ${path} changed state with ${outcome.status}`).toBe(digest);
          }
        },
      ),
      { numRuns: 10_000, seed: Number(process.env.FUZZ_SEED ?? 20261123) },
    );
    const invalidUtf8 = await check(
      new Request('http://127.0.0.1:4010/_emulator/workspaces', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: fc.sample(invalidUtf8Body, 1)[0]!,
      }),
    );
    expect(invalidUtf8.problems).toEqual([]);
    expect(prototypeKeys()).toEqual(before);
    const seconds = (performance.now() - started) / 1000;
    const top = [...statuses].sort((a, b) => b[1] - a[1]).slice(0, 6);
    recordFigure({
      test: 'fuzz: every route in process',
      load: `${requests.toLocaleString('en')} fast-check requests (methods, hostile paths and ids, bodies, headers)`,
      proved:
        'never a 5xx or crash; always the error format with a request id; refusals leave state unchanged; Object.prototype untouched',
      figures: `0 × 5xx; ${refusals.toLocaleString('en')} refusals; statuses ${top.map(([s, n]) => `${s}×${n}`).join(', ')}; ${seconds.toFixed(1)} s`,
    });
  });
});
