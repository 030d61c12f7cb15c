import { describe, expect, it } from 'vitest';
import { rejectionOf, withFakeTime } from '../_test/fake-time';
import { errorReply, useTestServer } from '../_test/test-server';
import { APIUserAbortError, isAPIUserAbortError } from '../errors/abort-error';
import { MessageFailedError } from '../errors/wait-errors';
import type { Message, MessageStatus } from '../wire/message';

const server = useTestServer();
const id = '5b0c8a3e-0000-4000-8000-000000000002';

function message(status: MessageStatus) {
  return { body: { id, object: 'message', status, error: null } };
}

/** A signal that fires after `milliseconds` of (fake) time, with a reason of its own. */
function abortAfter(milliseconds: number) {
  const controller = new AbortController();
  const reason = new Error('user stopped');
  setTimeout(() => controller.abort(reason), milliseconds);
  return { signal: controller.signal, reason };
}

describe('messages.waitFor with a signal', () => {
  it('rejects at once when aborted during a poll, and the request itself is cancelled', async () => {
    server.on('GET', `/messages/${id}`, { ...message('queued'), delayMs: 30_000 });
    const fetched: Request[] = [];
    const client = server.client({
      fetch: (input, init) => {
        const request = new Request(input, init);
        fetched.push(request);
        return fetch(request);
      },
    });
    let reason: Error | undefined;
    const { outcome, elapsed } = await withFakeTime(() => {
      const abort = abortAfter(200);
      reason = abort.reason;
      return client.messages.waitFor(id, { until: 'delivered', signal: abort.signal });
    });
    const error = rejectionOf(outcome);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(isAPIUserAbortError(error)).toBe(true);
    expect((error as Error).cause).toBe(reason);
    expect(elapsed).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
    expect(fetched[0]?.signal.aborted).toBe(true);
  });

  it('rejects at once when aborted while waiting between polls', async () => {
    server.on('GET', `/messages/${id}`, message('queued'));
    const { outcome, elapsed } = await withFakeTime(() =>
      server.client().messages.waitFor(id, {
        until: 'delivered',
        pollInterval: 10_000,
        signal: abortAfter(1_000).signal,
      }),
    );
    expect(rejectionOf(outcome)).toBeInstanceOf(APIUserAbortError);
    expect(elapsed).toBeGreaterThanOrEqual(1_000);
    expect(elapsed).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
  });

  it('never retries an aborted call, also while a retry waits', async () => {
    server.on('GET', `/messages/${id}`, errorReply('internal_error'));
    // The first back-off is 250–500 ms: the abort at 100 ms lands inside it. Time then runs
    // on for 10 s, in which a retry that ignored the abort would have shown up.
    const { outcome } = await withFakeTime(async () => {
      const error = await server
        .client()
        .messages.waitFor(id, { until: 'sent', signal: abortAfter(100).signal })
        .catch((caught: unknown) => caught);
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      return error;
    });
    expect(outcome).toMatchObject({ status: 'fulfilled', value: expect.any(APIUserAbortError) });
    expect(server.requests).toHaveLength(1);
  });

  it('does not poll at all with a signal that already fired, and keeps its default reason', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await server
      .client()
      .messages.waitFor(id, { until: 'sent', signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(((error as Error).cause as DOMException).name).toBe('AbortError');
    expect(server.requests).toHaveLength(0);
  });
});

describe('messages.waitFor callbacks', () => {
  it('calls onPoll after every poll and onStatus on each change, the first status included', async () => {
    server.on(
      'GET',
      `/messages/${id}`,
      message('queued'),
      message('queued'),
      message('sent'),
      message('sent'),
      message('delivered'),
    );
    const polled: string[] = [];
    const changes: string[] = [];
    const { outcome } = await withFakeTime(() =>
      server.client().messages.waitFor(id, {
        until: 'delivered',
        pollInterval: 1_000,
        onPoll: (seen: Message) => polled.push(seen.status),
        onStatus: (seen: Message) => changes.push(seen.status),
      }),
    );
    expect(outcome.status).toBe('fulfilled');
    expect(polled).toEqual(['queued', 'queued', 'sent', 'sent', 'delivered']);
    expect(changes).toEqual(['queued', 'sent', 'delivered']);
  });

  it('shows the failed status to onStatus before rejecting', async () => {
    server.on('GET', `/messages/${id}`, message('queued'), message('failed'));
    const changes: string[] = [];
    const { outcome } = await withFakeTime(() =>
      server.client().messages.waitFor(id, {
        until: 'delivered',
        onStatus: (seen) => changes.push(seen.status),
      }),
    );
    expect(rejectionOf(outcome)).toBeInstanceOf(MessageFailedError);
    expect(changes).toEqual(['queued', 'failed']);
  });
});
