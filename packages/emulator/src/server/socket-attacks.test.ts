import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { startEmulatorBin as startBin, stopEmulatorBins } from '@parley/test-utils';
import { afterEach, describe, expect, test } from 'vitest';

afterEach(stopEmulatorBins);

/** Sends `size` bytes as a chunked body (no Content-Length) and returns the answer. */
function postChunked(
  url: string,
  contentType: string,
  size: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': contentType, 'transfer-encoding': 'chunked' } },
      (response) => {
        let body = '';
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    // The server reads the refused body to its end, so the client never sees EPIPE or a reset.
    request.on('error', reject);
    const chunk = Buffer.alloc(16 * 1024, 'a');
    let written = 0;
    const writeMore = () => {
      while (written < size) {
        written += chunk.length;
        if (!request.write(chunk)) return void request.once('drain', writeMore);
      }
      request.end();
    };
    writeMore();
  });
}

/** Writes raw bytes to the socket and returns everything the server sent back. */
function rawExchange(url: string, bytes: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

function parseRawAnswer(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return {
    status: Number(head.split(' ')[1]),
    requestId: /x-request-id: (req_[0-9a-f]{32})/i.exec(head)?.[1],
    error: JSON.parse(body).error as { code: string; request_id: string; details: Record<string, unknown> },
  };
}

describe('hostile requests never take the server down', () => {
  test('a chunked body over 100 KiB gets its 413/415 whole and the process keeps serving', async () => {
    const { ready, child } = await startBin([]);
    const root = ready.control_url.replace(/\/_emulator$/, '');
    const targets = [
      ['/_emulator/workspaces', 'application/json', 413, 'payload_too_large'],
      ['/_emulator/reset', 'text/plain', 415, 'unsupported_media_type'],
      ['/v1/messages', 'application/json', 401, 'missing_api_key'],
      ['/_emulator/workspaces', 'application/json', 413, 'payload_too_large'],
    ] as const;
    for (const [path, type, status, code] of targets) {
      const answer = await postChunked(`${root}${path}`, type, 400 * 1024);
      expect(answer.status).toBe(status);
      expect(JSON.parse(answer.body).error.code).toBe(code);
      const health = await fetch(`${ready.control_url}/health`);
      expect(health.status).toBe(200);
    }
    // Authenticated, so the body is read: 413, not 401.
    const authorised = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        `${ready.base_url}/messages`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${ready.sandbox_key}`,
            'idempotency-key': 'big-1',
            'content-type': 'application/json',
            'transfer-encoding': 'chunked',
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      for (let i = 0; i < 20; i++) request.write(Buffer.alloc(16 * 1024, 'b'));
      request.end();
    });
    expect(authorised).toBe(413);
    expect((await fetch(`${ready.control_url}/health`)).status).toBe(200);
    expect(child.exitCode).toBeNull();
  });

  test("Node's parser refusals come back in the error format with a request id", async () => {
    const { ready, child } = await startBin([]);
    const cases: [string, number, string, string | undefined][] = [
      ['GE T / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400, 'validation_error', 'HPE_INVALID_METHOD'],
      ['GET /v1/stätus HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400, 'validation_error', undefined],
      [
        'POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
        400,
        'validation_error',
        undefined,
      ],
      [
        `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
        431,
        'headers_too_large',
        undefined,
      ],
    ];
    for (const [bytes, status, code, parserCode] of cases) {
      const answer = parseRawAnswer(await rawExchange(ready.base_url, Buffer.from(bytes, 'latin1')));
      expect(answer.status).toBe(status);
      expect(answer.error.code).toBe(code);
      expect(answer.error.request_id).toMatch(/^req_[0-9a-f]{32}$/);
      expect(answer.requestId).toBe(answer.error.request_id);
      if (status === 400) expect(answer.error.details.reason).toBe('malformed_http');
      if (parserCode) expect(answer.error.details.parser_code).toBe(parserCode);
    }
    expect((await fetch(`${ready.control_url}/health`)).status).toBe(200);
    expect(child.exitCode).toBeNull();
  });
});
