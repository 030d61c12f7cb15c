import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordFigure } from './_figures';

let server: EmulatorServer;
beforeAll(async () => {
  server = await startEmulatorServer({ port: 0, clock: 'frozen', rateLimits: false });
});
afterAll(() => server.close());

const port = () => Number(new URL(server.url).port);

/** A body sent chunked (no Content-Length), `size` bytes in `chunk`-byte pieces. */
function chunkedPost(path: string, type: string, size: number, chunk: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port: port(),
        path,
        method: 'POST',
        headers: { 'content-type': type, 'transfer-encoding': 'chunked' },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    const piece = Buffer.alloc(chunk, 0x61);
    let written = 0;
    const writeMore = () => {
      while (written < size) {
        written += chunk;
        if (!request.write(piece)) return void request.once('drain', writeMore);
      }
      request.end();
    };
    writeMore();
  });
}

/** Raw bytes on a fresh socket; resolves with what came back once the server closes or `ms` pass. */
function raw(bytes: Buffer, ms = 2_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port(), '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(answer);
    }, ms);
    socket.on('data', (data) => {
      answer += data;
      if (answer.includes('\r\n\r\n') && /content-length: (\d+)/i.test(answer)) {
        const length = Number(/content-length: (\d+)/i.exec(answer)![1]);
        if (Buffer.byteLength(answer.split('\r\n\r\n').slice(1).join('\r\n\r\n')) >= length) socket.end();
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('error', () => {});
  });
}

const alive = async () => (await fetch(`${server.controlUrl}/health`)).status === 200;

describe('socket abuse', () => {
  test('chunked and oversized bodies to every body-reading route: a 4xx each, the server stays up', async () => {
    const routes = [
      '/_emulator/workspaces',
      '/_emulator/reset',
      '/v1/messages',
      '/v1/sandbox/events',
      '/_emulator/clock/advance',
    ];
    let sent = 0;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.constantFrom('application/json', 'text/plain'),
        fc.integer({ min: 0, max: 400 * 1024 }),
        fc.constantFrom(512, 16 * 1024, 64 * 1024),
        async (path, type, size, chunk) => {
          const status = await chunkedPost(path, type, size, Math.min(chunk, Math.max(size, 1)));
          sent++;
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          expect(status).toBeGreaterThanOrEqual(400);
          expect(status).toBeLessThan(500);
        },
      ),
      { numRuns: 150, seed: 7 },
    );
    expect(await alive()).toBe(true);
    recordFigure({
      test: 'socket: chunked and oversized bodies',
      load: `${sent} chunked bodies of 0–400 KiB to 5 body-reading routes, over a real socket`,
      proved: 'each gets its whole 4xx answer (no reset, no EPIPE); the process never exits',
      figures: `statuses ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}; server alive after`,
    });
  });

  test("malformed HTTP is answered in the error format; half-sent requests don't take the server", async () => {
    const malformed = [
      'GE T / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      'GET /v1/\xff HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      'POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}',
      'POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n',
      'POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: ${'a'.repeat(20_000)}\r\n\r\n`,
      'GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n',
    ];
    let answered = 0;
    for (const request of malformed) {
      const answer = await raw(Buffer.from(request, 'latin1'));
      const status = Number(answer.split(' ')[1]);
      expect(status, JSON.stringify(request.slice(0, 60))).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
      const body = JSON.parse(answer.split('\r\n\r\n')[1]!);
      expect(body.error.request_id).toMatch(/^req_[0-9a-f]{32}$/);
      answered++;
    }
    // Slow or half-sent requests: 200 sockets that send half a request line and go quiet.
    const sockets = Array.from({ length: 200 }, () => {
      const socket = connect(port(), '127.0.0.1', () =>
        socket.write('POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-'),
      );
      socket.on('error', () => {});
      return socket;
    });
    expect(await alive()).toBe(true);
    const status = await fetch(`${server.baseUrl}/status`, {
      headers: { authorization: `Bearer ${server.sandboxKey}` },
    });
    expect(status.status).toBe(200);
    for (const socket of sockets) socket.destroy();
    recordFigure({
      test: 'socket: malformed HTTP and half-sent requests',
      load: `${malformed.length} malformed requests; 200 sockets holding half a request`,
      proved:
        "parser refusals come back as 4xx in the error format with a request id; idle half requests don't block others",
      figures: `${answered}/${malformed.length} answered in the error format; /v1/status 200 with 200 sockets held open`,
    });
  });
});
