import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { Parley } from '../client';
import type { ParleyOptions } from '../core/client-options';
import { ERROR_STATUS, type ErrorCode } from '../wire/error';

/** Base URL the test server answers on (intercepted in-process by msw; loopback if it leaked). */
export const TEST_BASE_URL = 'http://127.0.0.1:4599/v1';
/** A well-shaped sandbox key. */
export const TEST_API_KEY = 'prl_sandbox_0123456789abcdefghijABCDEFGHIJkl';

/** One request the server saw. */
export interface RecordedRequest {
  method: string;
  /** Path under the base, e.g. `/messages`. */
  path: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

/** One canned answer. */
export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Answer with a network failure instead of a response. */
  networkError?: boolean;
  /** Wait this long (real ms) before answering. */
  delayMs?: number;
}

/** An msw server answering canned replies under {@link TEST_BASE_URL} and recording every request. */
export interface TestServer {
  /** Every request seen since the last test began. */
  readonly requests: RecordedRequest[];
  /** Answers `method path` with the replies in order (a function computes one from the request); the last one repeats. */
  on(
    method: 'GET' | 'POST',
    path: string,
    ...replies: (Reply | ((request: RecordedRequest) => Reply))[]
  ): void;
  /** A client pointed at this server. */
  client(options?: ParleyOptions): Parley;
}

let requestCounter = 0;

/** A reply carrying a spec error body for `code`, with the status `ERROR_STATUS` gives it. */
export function errorReply(
  code: ErrorCode,
  extra: { details?: Record<string, unknown>; headers?: Record<string, string>; message?: string } = {},
): Reply {
  const requestId = nextRequestId();
  return {
    status: ERROR_STATUS[code],
    body: {
      error: {
        code,
        message: extra.message ?? `Error ${code}`,
        request_id: requestId,
        details: extra.details ?? {},
      },
    },
    headers: { 'x-request-id': requestId, ...extra.headers },
  };
}

/** Sets up the server for the calling test file: listen before all, reset after each, close after all. */
export function useTestServer(): TestServer {
  const requests: RecordedRequest[] = [];
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    requests.length = 0;
  });
  afterAll(() => server.close());

  return {
    requests,
    on(method, path, ...replies) {
      const queue = [...replies];
      const url = `${TEST_BASE_URL}${path}`;
      const handler = method === 'GET' ? http.get : http.post;
      server.use(
        handler(url, async ({ request }) => {
          const text = await request.text();
          const recorded: RecordedRequest = {
            method: request.method,
            path: new URL(request.url).pathname.replace(/^\/v1/, ''),
            url: new URL(request.url),
            headers: request.headers,
            body: text === '' ? undefined : JSON.parse(text),
          };
          requests.push(recorded);
          const next = (queue.length > 1 ? queue.shift() : queue[0]) ?? {};
          const reply = typeof next === 'function' ? next(recorded) : next;
          if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
          if (reply.networkError) return HttpResponse.error();
          return HttpResponse.json(reply.body ?? {}, {
            status: reply.status ?? 200,
            headers: {
              'x-request-id': nextRequestId(),
              'ratelimit-limit': '60',
              'ratelimit-remaining': '59',
              'ratelimit-reset': '42',
              ...reply.headers,
            },
          });
        }),
      );
    },
    client: (options = {}) => new Parley({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, ...options }),
  };
}

function nextRequestId(): string {
  requestCounter += 1;
  return `req_${requestCounter.toString(16).padStart(32, '0')}`;
}
