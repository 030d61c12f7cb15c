// Hostile peers of the CLI on loopback: an "emulator" whose activity stream never ends a line or an
// event, a receiver whose answer never ends, a sender of huge bodies; and a watch on the CLI
// process's memory. Shared by cli-hostile-servers.test.ts and its hardening counterpart.
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A node:http server on 127.0.0.1 serving `handle`; `close` also ends its open connections. */
export async function startHostileServer(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    response.on('error', () => {});
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Writes `chunks` as fast as the peer reads them (waiting for `drain`); false when the peer went
 * away first. Counts the bytes in `sent.bytes`.
 */
export async function send(
  response: ServerResponse,
  chunks: Iterable<Uint8Array | string>,
  sent = { bytes: 0 },
): Promise<boolean> {
  for (const chunk of chunks) {
    if (response.destroyed) return false;
    sent.bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    if (!response.write(chunk)) {
      const drained = await new Promise<boolean>((resolve) => {
        const done = (ok: boolean) => () => {
          response.off('drain', onDrain);
          response.off('close', onClose);
          resolve(ok);
        };
        const onDrain = done(true);
        const onClose = done(false);
        response.once('drain', onDrain);
        response.once('close', onClose);
      });
      if (!drained) return false;
    }
  }
  return !response.destroyed;
}

/** `chunk` again and again: `total` bytes in all, or until `stop()` says so. */
export function* repeated(chunk: Uint8Array, until: { total?: number; stop?: () => boolean }) {
  for (let sent = 0; until.total === undefined || sent < until.total; sent += chunk.byteLength) {
    if (until.stop?.()) return;
    yield chunk;
  }
}

/** One activity item as the emulator streams it: `id: seq` and its JSON. */
export function sseItem(seq: number): string {
  const item = {
    seq,
    at: '2026-10-14T09:30:15.000Z',
    kind: 'clock',
    application_ids: [],
    now: `2026-10-14T09:30:${String(10 + seq).padStart(2, '0')}.000Z`,
    mode: 'frozen',
  };
  return `id: ${seq}\ndata: ${JSON.stringify(item)}\n\n`;
}

/** The SSE answer's head, as the emulator sends it. */
export function startStream(response: ServerResponse): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
  });
  response.write('retry: 2000\n: hostile activity\n\n');
}

/**
 * POSTs `size` bytes (Content-Length declared) in 64 KiB chunks as fast as `url` reads them, and
 * goes on writing after an early answer, as a hostile sender would. Resolves once the answer has
 * come and the writing is over (all sent, or the connection closed): the answer's status and body,
 * and how many bytes were written.
 */
export function postHuge(
  url: string,
  size: number,
): Promise<{ status: number; body: string; sentBytes: number }> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sentBytes = 0;
    let answer: { status: number; body: string } | undefined;
    let writing = true;
    const settle = () => {
      if (answer && !writing) resolve({ ...answer, sentBytes });
    };
    const sending = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(size) },
    });
    sending.on('error', (error) => {
      writing = false;
      // A server that answered, then closed on a sender still writing: expected.
      if (answer) settle();
      else reject(error);
    });
    // Node's client ends its own side once a `Connection: close` answer is read, and takes no more
    // writes without an error: the close is the end of the writing.
    sending.on('close', () => {
      writing = false;
      if (answer) settle();
      else reject(new Error(`the connection closed after ${sentBytes} bytes, with no answer`));
    });
    sending.on('response', (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('error', () => {});
      response.on('end', () => {
        answer = { status: response.statusCode!, body: Buffer.concat(parts).toString('utf8') };
        settle();
      });
    });
    const writeMore = () => {
      while (sentBytes < size && writing) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sentBytes));
        sentBytes += piece.length;
        if (!sending.write(piece)) return void sending.once('drain', writeMore);
      }
      if (writing)
        sending.end(() => {
          writing = false;
          settle();
        });
    };
    writeMore();
  });
}

/** Bytes of a `/proc/<pid>/status` field (`VmRSS`, `VmHWM`); 0 once the process is gone. */
export function procStatusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(
      new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'),
    );
    return line ? Number(line[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Watches a process's resident memory every 50 ms; past `limitBytes` it kills the process
 * (SIGKILL), so a test of unbounded reading fails fast instead of filling the machine.
 * `peak()` is the high-water mark (VmHWM) while the process lives, else the largest sample.
 */
export function watchMemory(pid: number, limitBytes: number) {
  let largest = 0;
  let killed = false;
  const timer = setInterval(() => {
    const rss = procStatusBytes(pid, 'VmRSS');
    largest = Math.max(largest, rss);
    if (rss > limitBytes && !killed) {
      killed = true;
      process.kill(pid, 'SIGKILL');
    }
  }, 50);
  timer.unref();
  return {
    peak: () => Math.max(largest, procStatusBytes(pid, 'VmHWM')),
    killed: () => killed,
    stop: () => clearInterval(timer),
  };
}
