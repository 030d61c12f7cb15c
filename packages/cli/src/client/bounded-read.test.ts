import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { readAtMost } from '@parley/emulator/control';
import { describe, expect, it } from 'vitest';
import { controlApi, MAX_CONTROL_ANSWER_BYTES } from './control-api';

/** A body of `sizes` chunks of "a"; `endless` goes on until cancelled. Counts what was pulled. */
function body(sizes: number[], { endless = false } = {}) {
  const state = { pulled: 0, cancelled: false };
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = sizes[index++] ?? (endless ? 64 * 1024 : undefined);
      if (size === undefined) return controller.close();
      state.pulled += size;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe('readAtMost', () => {
  it('reads a body of exactly the bound whole, and cuts one a byte longer there, cancelling the rest', async () => {
    const whole = body([10, 6]);
    expect(await readAtMost(whole.stream, 16)).toEqual({ bytes: new Uint8Array(16).fill(0x61), cut: false });
    expect(whole.state.cancelled).toBe(false);

    const over = body([10, 7, 5]);
    expect(await readAtMost(over.stream, 16)).toEqual({ bytes: new Uint8Array(16).fill(0x61), cut: true });
    expect(over.state).toEqual({ pulled: 17, cancelled: true });
  });

  it('stops an endless body at the bound', async () => {
    const endless = body([], { endless: true });
    const read = await readAtMost(endless.stream, 1024 * 1024);
    expect(read.bytes.byteLength).toBe(1024 * 1024);
    expect(read.cut).toBe(true);
    // Pulled no further than the chunk that crossed the bound (and one the stream queued ahead).
    expect(endless.state.pulled).toBeLessThanOrEqual(1024 * 1024 + 2 * 64 * 1024);
    expect(endless.state.cancelled).toBe(true);
  });

  it('reads no body as empty, and rejects as the body does', async () => {
    expect(await readAtMost(null, 16)).toEqual({ bytes: new Uint8Array(0), cut: false });
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('socket hang up'));
      },
    });
    await expect(readAtMost(failing, 16)).rejects.toThrow('socket hang up');
  });
});

describe('the control API', () => {
  const answering = (stream: ReadableStream<Uint8Array>) =>
    controlApi('http://127.0.0.1:4010/v1', async () => new Response(stream, { status: 200 }));

  it('reads an answer of exactly 1 MiB, and refuses a longer one after reading 1 MiB (exit 3)', async () => {
    const json = `{"now":"${'x'.repeat(MAX_CONTROL_ANSWER_BYTES - 10)}"}`;
    expect(json.length).toBe(MAX_CONTROL_ANSWER_BYTES);
    const exact = new Response(json).body!;
    expect((await answering(exact).clock()).now).toHaveLength(MAX_CONTROL_ANSWER_BYTES - 10);

    const endless = body([], { endless: true });
    await expect(answering(endless.stream).clock()).rejects.toMatchObject({
      code: 3,
      message:
        'http://127.0.0.1:4010 answered GET /_emulator/clock with more than 1 MiB, which no emulator answer is: reading stopped there',
    });
    expect(endless.state.cancelled).toBe(true);
  });

  it('ends an answer whose body stalls at its 5 s timeout, even after a garbage collection during the read', async () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const server = createServer((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).write('{"now":');
      // Collected while the CLI waits for the rest: the request's timeout must still end the read.
      setTimeout(() => {
        collectGarbage();
        collectGarbage();
      }, 100);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await expect(controlApi(`${origin}/v1`, (request) => fetch(request)).clock()).rejects.toMatchObject({
      code: 3,
      message: `${origin} has no emulator control API: this command works against the emulator (parley emulator start)`,
    });
    server.closeAllConnections();
    server.close();
  });
});
