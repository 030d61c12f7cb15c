// The receiver's 413 must reach a sender that is still writing. Node's own `Connection: close`
// answer destroyed the socket with the sender's bytes unread, the kernel reset the connection, and
// a busy sender lost the answer. These senders are raw sockets so each step happens in a known order.
import { connect, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DISCARD_LIMIT_BYTES, type Receiver, startReceiver } from './_receiver';

const MiB = 1024 * 1024;
const TOO_LARGE =
  'HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json\r\nContent-Length: 29\r\n' +
  'Connection: close\r\n\r\n{"error":"payload_too_large"}';
const PATIENCE = { timeout: 10_000, interval: 20 };

let receiver: Receiver;
let refusals: string[];
let handled: number;

async function start(lingerMs?: number) {
  refusals = [];
  handled = 0;
  receiver = await startReceiver({ onRefused: (reason) => refusals.push(reason), lingerMs }, async () => {
    handled += 1;
    return 204;
  });
}
beforeEach(() => start());
afterEach(() => receiver.close());

/** A raw sender: what it read, whether its peer ended, and the first error it saw. */
function sender(declaredBytes: number, { allowHalfOpen = false } = {}) {
  const { port } = new URL(receiver.url);
  const socket: Socket = connect({ host: '127.0.0.1', port: Number(port), allowHalfOpen });
  const seen = { read: '', ended: false, error: undefined as NodeJS.ErrnoException | undefined };
  socket.setEncoding('utf8');
  socket.on('data', (text: string) => {
    seen.read += text;
  });
  socket.on('end', () => {
    seen.ended = true;
  });
  socket.on('error', (error) => {
    seen.error ??= error;
  });
  socket.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${declaredBytes}\r\n\r\n`);
  return { socket, seen };
}

/** Writes `bytes` of body, waiting for each chunk to be taken; false once a write fails. */
async function writeBody(socket: Socket, bytes: number): Promise<boolean> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  for (let sent = 0; sent < bytes; sent += chunk.length) {
    const piece = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
    const taken = await new Promise<boolean>((resolve) => socket.write(piece, (error) => resolve(!error)));
    if (!taken) return false;
  }
  return true;
}

describe('a refused body (over 1 MiB): lingering close', () => {
  it('a sender that writes 8 MiB before it reads anything still reads the whole 413, then the end', async () => {
    const { socket, seen } = sender(300 * MiB);
    socket.pause();
    // The receiver answered at the declared length; its socket stays open to read the rest.
    await vi.waitFor(() => expect(refusals).toHaveLength(1), PATIENCE);
    expect(await writeBody(socket, 8 * MiB)).toBe(true);
    socket.resume();
    await vi.waitFor(() => expect(seen.ended).toBe(true), PATIENCE);
    expect(seen.read).toBe(TOO_LARGE);
    expect(seen.error).toBeUndefined();
    expect(handled).toBe(0);
    socket.destroy();
  });

  it(`drops at most ${DISCARD_LIMIT_BYTES / MiB} MiB of the rest, then closes on a sender that never stops`, async () => {
    const { socket, seen } = sender(300 * MiB);
    // Writes until the receiver closes; 64 MiB is well past the limit plus both kernels' buffers.
    const wroteAll = await writeBody(socket, 64 * MiB);
    expect(wroteAll).toBe(false);
    expect(seen.read).toBe(TOO_LARGE);
    expect(refusals).toEqual([
      'Refused a request of more than 1 MiB to the listener (413): no delivery is that large',
    ]);
    socket.destroy();
  });

  it('closes on a sender that stops sending and keeps its side open once the linger is over', async () => {
    await receiver.close();
    await start(50);
    const { socket, seen } = sender(300 * MiB, { allowHalfOpen: true });
    expect(await writeBody(socket, 2 * MiB)).toBe(true);
    await vi.waitFor(() => expect(seen.ended).toBe(true), PATIENCE);
    expect(seen.read).toBe(TOO_LARGE);
    // Once the receiver has closed, a further byte is refused by the kernel.
    await vi.waitFor(async () => expect(await writeBody(socket, 1)).toBe(false), PATIENCE);
    socket.destroy();
  });

  it('a request sent behind a refused body on the same connection is never handled', async () => {
    const { socket, seen } = sender(MiB + 1);
    expect(await writeBody(socket, MiB + 1)).toBe(true);
    socket.write('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}');
    await vi.waitFor(() => expect(seen.ended).toBe(true), PATIENCE);
    expect(seen.read).toBe(TOO_LARGE);
    // The receiver is still answering on other connections, and it handled nothing so far.
    expect((await fetch(receiver.url, { method: 'POST', body: '{}' })).status).toBe(204);
    expect(handled).toBe(1);
    socket.destroy();
  });

  it('a body that ends after the refusal closes the connection without waiting, and the receiver goes on', async () => {
    await receiver.close();
    // A linger far longer than the patience: the close can only come from the body's end.
    await start(60_000);
    const { socket, seen } = sender(MiB + 1, { allowHalfOpen: true });
    expect(await writeBody(socket, MiB + 1)).toBe(true);
    await vi.waitFor(() => expect(seen.ended).toBe(true), PATIENCE);
    expect(seen.read).toBe(TOO_LARGE);
    await vi.waitFor(async () => expect(await writeBody(socket, 1)).toBe(false), PATIENCE);
    const next = await fetch(receiver.url, { method: 'POST', body: '{}' });
    expect(next.status).toBe(204);
    expect(handled).toBe(1);
    socket.destroy();
  });
});
