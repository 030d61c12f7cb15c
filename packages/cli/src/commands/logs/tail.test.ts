import { describe, expect, it, vi } from 'vitest';
import { emulatorContext } from '../../_test/emulator-context';
import { testContext } from '../../_test/test-context';
import type { ActivityItem } from '../../client/activity-stream';
import { plainStyle } from '../../output/plain-style';
import { activityLine } from './_activity-line';
import { activityFilter } from './_filter';
import tailCommand, { tail } from './tail';

// Generous on a loaded machine: these wait for real I/O, never for emulator time.
const PATIENCE = { timeout: 10_000, interval: 10 };

const request = (status: number, path = '/v1/messages'): ActivityItem => ({
  seq: 1,
  at: '2026-10-14T09:30:15.000Z',
  kind: 'request',
  application_ids: [],
  method: 'POST',
  path,
  status,
  request_id: 'req_1',
  key_prefix: 'prl_sandbox_AbCd',
  duration_ms: 3.5,
});

describe('activityFilter', () => {
  it('matches a status class, an exact status or word, and a path or what is under it', () => {
    const fourxx = activityFilter({ status: '4xx', path: '/v1/messages' });
    expect(
      [request(400), request(404, '/v1/messages/abc'), request(202), request(400, '/v1/messagesx')].map(
        fourxx,
      ),
    ).toEqual([true, true, false, false]);
    expect(activityFilter({ status: '404' })(request(404))).toBe(true);
    expect(
      activityFilter({ status: 'delivered' })({ ...request(0), kind: 'delivery', status: 'delivered' }),
    ).toBe(true);
    expect(activityFilter({ path: '/v1' })({ ...request(0), kind: 'clock', path: undefined })).toBe(false);
  });

  it('refuses a malformed status or path (exit 2)', () => {
    expect(() => activityFilter({ status: '4XX!' })).toThrow(expect.objectContaining({ code: 2 }));
    expect(() => activityFilter({ path: 'v1/messages' })).toThrow(
      expect.objectContaining({
        code: 2,
        message: '--path must start with /, e.g. --path /v1/messages; got "v1/messages"',
      }),
    );
  });
});

describe('activityLine', () => {
  it("prints a request's trace id from its traceparent, and nothing for a missing or malformed one", () => {
    const style = plainStyle();
    const traced = (traceparent: unknown) => activityLine({ ...request(202), traceparent }, style);
    expect(traced('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toBe(
      '09:30:15  request   POST /v1/messages → 202  3.5 ms  req_1  prl_sandbox_AbCd…  trace 4bf92f3577b34da6a3ce929d0e0e4736',
    );
    const plain = '09:30:15  request   POST /v1/messages → 202  3.5 ms  req_1  prl_sandbox_AbCd…';
    expect(traced(null)).toBe(plain);
    expect(traced(undefined)).toBe(plain);
    expect(traced(42)).toBe(plain);
    expect(traced('00-4bf92f3577b34da6a3ce929d0e0e4736\u001b[2J-00f067aa0ba902b7-01')).toBe(plain);
    expect(traced('00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01')).toBe(plain);
  });

  it('shows an item of a known kind without its fields as received instead of crashing the tail', () => {
    const style = plainStyle();
    const hollow = (kind: string) => ({ seq: 7, at: '2026-10-14T09:30:15.000Z', kind, application_ids: [] });
    expect(activityLine(hollow('delivery'), style)).toBe(
      '09:30:15  delivery  {"seq":7,"at":"2026-10-14T09:30:15.000Z","kind":"delivery","application_ids":[]}',
    );
    expect(activityLine(hollow('message'), style)).toBe(
      '09:30:15  message   {"seq":7,"at":"2026-10-14T09:30:15.000Z","kind":"message","application_ids":[]}',
    );
    expect(activityLine({ ...hollow('event'), event: null }, style)).toContain('"event":null');
  });

  it('says what each kind was, one line each', () => {
    const style = plainStyle();
    expect(activityLine(request(400), style)).toBe(
      '09:30:15  request   POST /v1/messages → 400  3.5 ms  req_1  prl_sandbox_AbCd…',
    );
    const delivery = {
      ...request(0),
      kind: 'delivery',
      status: 'pending',
      chaos: 'wrong_secret',
      delivery: {
        event_type: 'webhook.test',
        event_id: 'evt_1',
        attempts: [{ status_code: 400, error: null, chaos: 'wrong_secret' }],
      },
    };
    expect(activityLine(delivery, style)).toBe(
      '09:30:15  delivery  webhook.test evt_1 → pending  chaos wrong_secret: 400',
    );
  });
});

describe('parley logs tail', () => {
  it('prints the items that pass its filters as they happen, and ends with exit 130 on Ctrl-C', async () => {
    const { emulator, context } = emulatorContext();
    const controller = new AbortController();
    const run = context({ signal: controller.signal });
    const tailing = tail({ status: '4xx', path: '/v1/messages' }, run);
    await vi.waitFor(
      () =>
        expect(run.stderr.text()).toBe('Following the activity of http://127.0.0.1:4010 (Ctrl-C to stop)\n'),
      PATIENCE,
    );
    const call = (method: string, path: string, body?: unknown) =>
      emulator.fetch(
        new Request(`http://127.0.0.1:4010${path}`, {
          method,
          headers: { authorization: `Bearer ${emulator.sandboxKey}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
    await call('GET', '/v1/status');
    await call('POST', '/v1/messages', { to: 'nobody' });
    await call('GET', '/v1/messages/00000000-0000-4000-8000-000000000000');
    await call('GET', '/v1/connections/00000000-0000-4000-8000-000000000000/templates');
    await vi.waitFor(() => expect(run.stdout.text().trim().split('\n')).toHaveLength(2), PATIENCE);
    controller.abort();
    const summary = await tailing;
    expect(summary).toEqual({ printed: 2 });
    expect(tailCommand.exitCode?.(summary)).toBe(130);
    expect(run.stdout.text().trim().split('\n')).toEqual([
      expect.stringMatching(
        /^\d\d:\d\d:\d\d {2}request {3}POST \/v1\/messages → 400 {2}[\d.]+ ms {2}req_[0-9a-f]{32} {2}prl_sandbox_\w{4}…$/,
      ),
      expect.stringMatching(
        /^\d\d:\d\d:\d\d {2}request {3}GET \/v1\/messages\/00000000-0000-4000-8000-000000000000 → 404 /,
      ),
    ]);
    await emulator.close();
  });

  it('tells an event over 1 MiB on stderr and goes on printing the items after it', async () => {
    const encoder = new TextEncoder();
    const item = (seq: number) => ({
      seq,
      at: '2026-10-14T09:30:15.000Z',
      kind: 'clock',
      application_ids: [],
      now: '2026-10-14T09:30:15.000Z',
      mode: 'frozen',
    });
    const controller = new AbortController();
    const run = testContext({
      env: { PARLEY_BASE_URL: 'http://127.0.0.1:4010/v1' },
      signal: controller.signal,
      fetch: async (request) =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(stream) {
              // As fetch does: the request's signal (Ctrl-C) ends the body.
              request.signal.addEventListener('abort', () => stream.error(request.signal.reason));
              stream.enqueue(encoder.encode(`id: 1\ndata: ${JSON.stringify(item(1))}\n\n`));
              stream.enqueue(encoder.encode(`id: 2\ndata: ${'x'.repeat(2 * 1024 * 1024)}\n\n`));
              stream.enqueue(encoder.encode('id: 3\ndata: {"no":"seq"}\n\n'));
              stream.enqueue(encoder.encode(`id: 4\ndata: ${JSON.stringify(item(4))}\n\n`));
              stream.enqueue(encoder.encode(`id: 5\ndata: ${'y'.repeat(1024 * 1024)}\n\n`));
              stream.enqueue(encoder.encode(`id: 8\ndata: ${JSON.stringify(item(8))}\n\n`));
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    });
    const tailing = tail({}, run);
    await vi.waitFor(() => expect(run.stdout.text().trim().split('\n')).toHaveLength(3), PATIENCE);
    controller.abort();
    expect(await tailing).toEqual({ printed: 3 });
    expect(run.stdout.text()).toBe('09:30:15  clock     now 2026-10-14T09:30:15.000Z (frozen)\n'.repeat(3));
    expect(run.stderr.text()).toBe(
      [
        'Following the activity of http://127.0.0.1:4010 (Ctrl-C to stop)',
        'Skipped an event over 1 MiB: the rest of it is read without being kept; still following',
        'Skipped an event that is not an activity item (its data must be a JSON object with seq and kind)',
        // The jump from 1 to 4 is the two events told as skipped; from 4 to 8, one skipped, two missed.
        'Skipped an event over 1 MiB: the rest of it is read without being kept; still following',
        '2 items were missed while disconnected (the emulator keeps the last 1,000)',
        '',
      ].join('\n'),
    );
  });
});
