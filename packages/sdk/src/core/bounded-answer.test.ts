import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { Parley } from '../client';
import { ConnectionError } from '../errors/connection-error';
import { MAX_ANSWER_BYTES, readJsonAnswer } from './_read-json-answer';

/** A chunked answer (no Content-Length) of `text`, in chunks of `size` bytes. */
function chunked(text: string, size = 7): Response {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(offset, offset + size));
        offset += size;
      },
    }),
  );
}

describe('readJsonAnswer', () => {
  const body = JSON.stringify({ text: 'x'.repeat(80) });

  test('a chunked answer of exactly the bound is parsed; one byte more is a ConnectionError', async () => {
    await expect(readJsonAnswer(chunked(body), body.length)).resolves.toEqual(JSON.parse(body));
    const refused = readJsonAnswer(chunked(body), body.length - 1);
    await expect(refused).rejects.toThrow(ConnectionError);
    await expect(refused).rejects.toThrow(/answered more than .* MiB, which no Parley answer is/);
  });

  test('a declared length over the bound is refused before reading; at the bound it is read', async () => {
    const declared = (length: number) =>
      new Response(body, { headers: { 'content-length': String(length) } });
    await expect(readJsonAnswer(declared(body.length), body.length)).resolves.toEqual(JSON.parse(body));
    await expect(readJsonAnswer(declared(body.length), body.length - 1)).rejects.toThrow(ConnectionError);
  });

  test('the bound is 16 MiB and a malformed answer still fails as JSON', async () => {
    expect(MAX_ANSWER_BYTES).toBe(16 * 1024 * 1024);
    await expect(readJsonAnswer(chunked('{"open":'))).rejects.toThrow(SyntaxError);
  });
});

describe('a client against a server that never stops answering', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  test('stops reading at 16 MiB with a ConnectionError instead of filling memory', async () => {
    let sent = 0;
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"pad":"');
      const chunk = 'x'.repeat(64 * 1024);
      const more = () => {
        while (!response.destroyed && sent < 64 * 1024 * 1024) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        response.end('"}');
      };
      more();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const parley = new Parley({
      apiKey: 'prl_sandbox_0123456789abcdefghijABCDEFGHIJkl',
      baseUrl: `http://127.0.0.1:${port}/v1`,
      maxRetries: 0,
    });
    await expect(parley.status.get()).rejects.toThrow(ConnectionError);
    // The server was cut off near the bound, not read to its 64 MiB end.
    expect(sent).toBeLessThan(32 * 1024 * 1024);
  });
});
