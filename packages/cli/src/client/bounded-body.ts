/** What {@link readAtMost} read: the bytes kept, and whether the body went on past them. */
export interface BoundedRead {
  bytes: Uint8Array;
  /** The body was longer than the bound: reading stopped there and the rest was cancelled. */
  cut: boolean;
}

/**
 * Reads a response body up to `maxBytes` and cancels the rest: a server's answer never costs more
 * memory than the bound, however long (or endless) it is. A body of exactly `maxBytes` is read to
 * its end and not cut. Rejects as the body's own read does (the request's signal, a reset); pass
 * the `request` whose signal bounds the read, so that it lives until the body is read.
 *
 * Cancelling is for a fetch `Response` the client reads: it only closes that connection.
 *
 * @example
 * const { bytes, cut } = await readAtMost(response.body, 64 * 1024, request);
 */
export async function readAtMost(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  request?: Request,
): Promise<BoundedRead> {
  if (!body) return { bytes: new Uint8Array(0), cut: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  // fetch follows a Request's signal only while the Request lives (undici holds it weakly): were
  // it collected during the read, its timeout would no longer end a stalled body.
  if (request) reading.add(request);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: joined(chunks, size), cut: false };
      if (size + value.byteLength > maxBytes) {
        chunks.push(value.subarray(0, maxBytes - size));
        size = maxBytes;
        await reader.cancel().catch(() => {});
        return { bytes: joined(chunks, size), cut: true };
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    reader.releaseLock();
    if (request) reading.delete(request);
  }
}

// The requests whose body is being read (see readAtMost).
const reading = new Set<Request>();

function joined(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
