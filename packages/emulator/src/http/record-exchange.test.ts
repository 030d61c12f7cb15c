import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { toNodeHandler } from 'h3/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { T0, textSend } from '../_testing/test-emulator';
import { assembleEmulator, type Emulator } from '../create-emulator';

// The HAR of /v1 traffic served as the emulator is (h3 on node:http): what is kept per call
// (`_record-exchange.ts`) must not hold the request, yet the HAR must show its headers exactly as
// `request.headers` gives them.
let server: Server;
let port: number;
let emulator: Emulator;
const seenRequests: WeakRef<IncomingMessage>[] = [];

beforeAll(async () => {
  const assembled = assembleEmulator({ clock: 'frozen', now: T0 });
  emulator = assembled.emulator;
  await emulator.ready;
  server = createServer(toNodeHandler(assembled.app));
  server.on('request', (request: IncomingMessage) => {
    seenRequests.push(new WeakRef(request));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await emulator.close();
});

/** Sends the request head as written (with `Connection: close`), then reads the whole answer. */
function exchange(head: string[], body = ''): Promise<string> {
  const lines = [...head, 'Host: 127.0.0.1', 'Connection: close', '', body];
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(lines.join('\r\n')));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the HAR of /v1 calls over node:http', () => {
  test('lists the request headers as request.headers does: lower-case, sorted, repeats joined', async () => {
    const answer = await exchange([
      'GET /v1/status?probe=headers HTTP/1.1',
      `Authorization: Bearer ${emulator.sandboxKey}`,
      'X-Zeta: last',
      'X-Dup: a',
      'x-dup: b',
      'X-Mixed-Case: v',
    ]);
    expect(answer.split(' ')[1]).toBe('200');
    const har = await emulator.control.har();
    const entry = har.log.entries.find((each) => each.request.url.endsWith('?probe=headers'))!;
    expect(entry.request.method).toBe('GET');
    expect(entry.request.url).toBe(`http://127.0.0.1/v1/status?probe=headers`);
    expect(entry.request.headers).toEqual([
      { name: 'authorization', value: 'Bearer prl_sandbox_parl…' },
      { name: 'connection', value: 'close' },
      { name: 'host', value: '127.0.0.1' },
      { name: 'x-dup', value: 'a, b' },
      { name: 'x-mixed-case', value: 'v' },
      { name: 'x-zeta', value: 'last' },
    ]);
  });

  test('keeps a send’s JSON body, and no request object alive once answered', async () => {
    const body = JSON.stringify(textSend());
    const before = seenRequests.length;
    const answer = await exchange(
      [
        'POST /v1/messages?probe=retained HTTP/1.1',
        `Authorization: Bearer ${emulator.sandboxKey}`,
        'Content-Type: application/json',
        'Idempotency-Key: retained-1',
        `Content-Length: ${Buffer.byteLength(body)}`,
      ],
      body,
    );
    expect(answer.split(' ')[1]).toBe('202');
    expect(seenRequests).toHaveLength(before + 1);
    const har = await emulator.control.har();
    const entry = har.log.entries.find((each) => each.request.url.endsWith('?probe=retained'))!;
    expect(entry.response.status).toBe(202);
    expect(entry.request.postData).toEqual({ mimeType: 'application/json', text: body });
    // The answer is built from what the ring kept, while the request itself is gone.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    await turn();
    gc();
    await turn();
    expect(seenRequests.at(-1)!.deref()).toBeUndefined();
  });

  test('shows a send’s body as it was sent, spacing and key order included', async () => {
    const body = `{ "type": "text",\n  "text": "Bonjour", "to": "${textSend().to}", "connection_id": "${textSend().connection_id}" }`;
    const answer = await exchange(
      [
        'POST /v1/messages?probe=as-sent HTTP/1.1',
        `Authorization: Bearer ${emulator.sandboxKey}`,
        'Content-Type: application/json',
        'Idempotency-Key: as-sent-1',
        `Content-Length: ${Buffer.byteLength(body)}`,
      ],
      body,
    );
    expect(answer.split(' ')[1]).toBe('202');
    const har = await emulator.control.har();
    const entry = har.log.entries.find((each) => each.request.url.endsWith('?probe=as-sent'))!;
    expect(entry.request.postData).toEqual({ mimeType: 'application/json', text: body });
    expect(entry.request.method).toBe('POST');
    expect(entry.time).toBeGreaterThanOrEqual(0);
  });
});
