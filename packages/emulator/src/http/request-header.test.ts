import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { H3 } from 'h3';
import { toNodeHandler } from 'h3/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { requestHeader } from './_request-header';

// Served as the emulator is (h3 on node:http), the raw-header read must give exactly what
// `request.headers.get` gives, whatever the case, order or repetition the client sent.
let server: Server;
let port: number;

beforeAll(async () => {
  const app = new H3();
  app.get('/', (event) => {
    const name = event.url.searchParams.get('name') ?? '';
    const fromRaw = requestHeader(event.req, name);
    return { fromRaw, fromHeaders: event.req.headers.get(name) };
  });
  server = createServer(toNodeHandler(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends the header lines as written, then reads what the handler saw. */
function seen(
  name: string,
  lines: string[],
): Promise<{ fromRaw: string | null; fromHeaders: string | null }> {
  const head = [`GET /?name=${name} HTTP/1.1`, 'Host: 127.0.0.1', ...lines, 'Connection: close', '', ''];
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(head.join('\r\n')));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('close', () => resolve(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))));
    socket.on('error', reject);
  });
}

describe('requestHeader', () => {
  test.each([
    ['absent', 'authorization', ['Accept: */*'], null],
    ['as sent', 'authorization', ['Authorization: Bearer k1'], 'Bearer k1'],
    ['any case', 'authorization', ['AUTHORIZATION: Bearer k2'], 'Bearer k2'],
    ['among others', 'authorization', ['Accept: */*', 'aUtHoRiZaTiOn: Bearer k3', 'X-One: 1'], 'Bearer k3'],
    ['empty', 'authorization', ['Authorization: '], ''],
    ['a name of the same length', 'authorization', ['Authorizatiom: Bearer no'], null],
    [
      'repeated: joined as headers.get joins it',
      'authorization',
      ['Authorization: a', 'authorization: b'],
      'a, b',
    ],
    ['another header, repeated', 'x-one', ['X-One: 1', 'x-one: 2'], '1, 2'],
  ])('%s', async (_case, name, lines, expected) => {
    const { fromRaw, fromHeaders } = await seen(name, lines);
    expect(fromRaw).toBe(expected);
    expect(fromRaw).toBe(fromHeaders);
  });

  test('in process (a plain Request, no Node request under it): headers.get', () => {
    const request = new Request('http://127.0.0.1/', { headers: { Authorization: 'Bearer k4' } });
    expect(requestHeader(request, 'authorization')).toBe('Bearer k4');
    expect(requestHeader(request, 'x-absent')).toBeNull();
  });
});
