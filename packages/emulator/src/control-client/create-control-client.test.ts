import { describe, expect, test } from 'vitest';
import { testEmulator } from '../_testing/test-emulator';
import { MAX_CONTROL_ANSWER_BYTES } from './_control-request';
import {
  ControlResponseError,
  EmulatorControlError,
  isControlResponseError,
  isEmulatorControlError,
} from './control-client-errors';
import { createControlClient } from './create-control-client';

/** A client whose fetch answers `answer` and records each request. */
function answering(answer: () => Response, baseUrl?: string) {
  const requests: Request[] = [];
  const control = createControlClient({
    ...(baseUrl === undefined ? {} : { baseUrl }),
    fetch: async (request) => {
      requests.push(request);
      return answer();
    },
  });
  return { control, requests };
}

/** A body of `size` bytes of JSON string content, `{"now":"xxx…"}`. */
function jsonOfSize(size: number): string {
  return `{"now":"${'x'.repeat(size - 10)}"}`;
}

describe('createControlClient: where calls go', () => {
  test('the default origin, an origin, an API base URL ending in /v1 (with or without a slash)', async () => {
    const urls: string[] = [];
    for (const baseUrl of [
      undefined,
      'http://127.0.0.1:4011',
      'http://127.0.0.1:4011/',
      'http://127.0.0.1:4011/v1',
      'http://127.0.0.1:4011/v1/',
      'http://localhost:4012/parley/v1',
    ]) {
      const { control, requests } = answering(() => Response.json({ now: 'x', mode: 'frozen' }), baseUrl);
      await control.getClock();
      urls.push(requests[0]!.url);
    }
    expect(urls).toEqual([
      'http://127.0.0.1:4010/_emulator/clock',
      'http://127.0.0.1:4011/_emulator/clock',
      'http://127.0.0.1:4011/_emulator/clock',
      'http://127.0.0.1:4011/_emulator/clock',
      'http://127.0.0.1:4011/_emulator/clock',
      'http://localhost:4012/parley/_emulator/clock',
    ]);
  });

  test('ids are one encoded path segment each; filters and paging are query parameters; bodies are JSON', async () => {
    const { control, requests } = answering(() => Response.json({}));
    await control.getChaos('../faults?x=1#y');
    await control.listDeliveries({ endpointId: 'a b', applicationId: 'c/d', limit: 5, cursor: 'Y3Vy' });
    await control.listApplications();
    await control.updateEndpoint('e/1', { active: false });
    await control.rotateSecret('e1');
    await control.idle({ timeoutMs: 250 });
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET http://127.0.0.1:4010/_emulator/endpoints/..%2Ffaults%3Fx%3D1%23y/chaos',
      'GET http://127.0.0.1:4010/_emulator/deliveries?limit=5&cursor=Y3Vy&endpoint_id=a+b&application_id=c%2Fd',
      'GET http://127.0.0.1:4010/_emulator/applications',
      'PATCH http://127.0.0.1:4010/_emulator/endpoints/e%2F1',
      'POST http://127.0.0.1:4010/_emulator/endpoints/e1/rotate-secret',
      'GET http://127.0.0.1:4010/_emulator/idle?timeout_ms=250',
    ]);
    expect(await requests[3]!.text()).toBe('{"active":false}');
    expect(requests[3]!.headers.get('content-type')).toBe('application/json');
    // A POST without input still sends a JSON body: the control API takes changes as JSON only.
    expect(await requests[4]!.text()).toBe('{}');
    expect(requests[0]!.headers.get('content-type')).toBeNull();
  });

  test('an id that tries to leave its segment reaches the emulator as that id: 404 naming it', async () => {
    const { emulator } = testEmulator();
    const control = createControlClient({ fetch: emulator.fetch });
    const refused = await control.getChaos('../faults').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EmulatorControlError);
    expect(refused).toMatchObject({
      status: 404,
      code: 'not_found',
      message: 'No endpoint ../faults.',
      details: { endpoint_id: '../faults' },
    });
    expect((refused as EmulatorControlError).requestId).toMatch(/^req_[0-9a-f]{32}$/);
  });
});

describe('createControlClient: answers', () => {
  test('a 204 is undefined; a refusal carries the spec error body, its status and request id', async () => {
    expect(await answering(() => new Response(null, { status: 204 })).control.clearFaults()).toBeUndefined();
    const body = {
      error: {
        code: 'workspace_clock_shared',
        message: 'Workspace w runs on the global clock.',
        request_id: 'req_0123456789abcdef0123456789abcdef',
        details: { workspace_id: 'w' },
      },
    };
    const refused = await answering(() => Response.json(body, { status: 409 }))
      .control.advanceWorkspaceClock('w', 5)
      .catch((error: unknown) => error);
    expect(isEmulatorControlError(refused)).toBe(true);
    expect(isControlResponseError(refused)).toBe(false);
    expect({ ...(refused as EmulatorControlError) }).toEqual({
      name: 'EmulatorControlError',
      status: 409,
      code: 'workspace_clock_shared',
      details: { workspace_id: 'w' },
      requestId: 'req_0123456789abcdef0123456789abcdef',
    });
    expect((refused as Error).message).toBe('Workspace w runs on the global clock.');
  });

  test('reads an answer of exactly 1 MiB; one byte more is refused as too_large, the rest not read', async () => {
    const exact = jsonOfSize(MAX_CONTROL_ANSWER_BYTES);
    expect(exact.length).toBe(MAX_CONTROL_ANSWER_BYTES);
    const clock = await answering(() => new Response(exact)).control.getClock();
    expect(clock.now).toHaveLength(MAX_CONTROL_ANSWER_BYTES - 10);

    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x61));
      },
      cancel() {
        cancelled = true;
      },
    });
    const over = await answering(() => new Response(endless))
      .control.getClock()
      .catch((error: unknown) => error);
    expect(over).toBeInstanceOf(ControlResponseError);
    expect(over).toMatchObject({
      reason: 'too_large',
      status: 200,
      message:
        'GET http://127.0.0.1:4010/_emulator/clock answered with more than 1 MiB, which no control answer is: reading stopped there',
    });
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThanOrEqual(MAX_CONTROL_ANSWER_BYTES + 2 * 64 * 1024);

    const oneMore = await answering(() => new Response(`${exact} `))
      .control.getClock()
      .catch((error: unknown) => error);
    expect(oneMore).toMatchObject({ reason: 'too_large' });
  });

  test('what is no control answer: not JSON, an error status without the error body, a body cut short', async () => {
    const notJson = await answering(() => new Response('<html>hi</html>', { status: 200 }))
      .control.health()
      .catch((error: unknown) => error);
    expect(notJson).toMatchObject({ name: 'ControlResponseError', reason: 'not_json', status: 200 });
    const bare = await answering(() => Response.json({ message: 'Not Found' }, { status: 404 }))
      .control.health()
      .catch((error: unknown) => error);
    expect(bare).toMatchObject({
      reason: 'no_error_body',
      status: 404,
      message:
        'GET http://127.0.0.1:4010/_emulator/health answered HTTP 404 without an error body: is the emulator there?',
    });
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('socket hang up'));
      },
    });
    const cut = await answering(() => new Response(broken))
      .control.health()
      .catch((error: unknown) => error);
    expect(cut).toMatchObject({ reason: 'unreadable', status: 200 });
    expect((cut as Error).cause).toMatchObject({ message: 'socket hang up' });
  });

  test('a fetch that fails rejects as it did', async () => {
    const failure = new TypeError('fetch failed');
    const control = createControlClient({
      fetch: async () => {
        throw failure;
      },
    });
    await expect(control.health()).rejects.toBe(failure);
  });

  test('maxAnswerBytes lowers the bound (64 KiB read whole, one byte more refused), never raises it past 1 MiB', async () => {
    const small = (body: string, maxAnswerBytes: number) =>
      createControlClient({ maxAnswerBytes, fetch: async () => new Response(body) }).getClock();
    expect((await small(jsonOfSize(64 * 1024), 64 * 1024)).now).toHaveLength(64 * 1024 - 10);
    await expect(small(jsonOfSize(64 * 1024 + 1), 64 * 1024)).rejects.toMatchObject({
      reason: 'too_large',
      message:
        'GET http://127.0.0.1:4010/_emulator/clock answered with more than 64 KiB, which no control answer is: reading stopped there',
    });
    await expect(
      small(jsonOfSize(MAX_CONTROL_ANSWER_BYTES + 1), 2 * MAX_CONTROL_ANSWER_BYTES),
    ).rejects.toMatchObject({
      reason: 'too_large',
    });
  });

  test('signal aborts every call of the client, with its reason', async () => {
    const interrupted = new AbortController();
    const control = createControlClient({
      signal: interrupted.signal,
      fetch: (request) =>
        new Promise((_, reject) => {
          if (request.signal.aborted) reject(request.signal.reason);
          request.signal.addEventListener('abort', () => reject(request.signal.reason));
        }),
    });
    const pending = control.health();
    interrupted.abort(new Error('Ctrl-C'));
    await expect(pending).rejects.toThrow('Ctrl-C');
    await expect(control.getClock()).rejects.toThrow('Ctrl-C');
  });

  test("a call that outlasts timeoutMs is aborted with the request's TimeoutError", async () => {
    const control = createControlClient({
      timeoutMs: 1,
      fetch: (request) =>
        new Promise((_, reject) =>
          request.signal.addEventListener('abort', () => reject(request.signal.reason)),
        ),
    });
    await expect(control.health()).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});
