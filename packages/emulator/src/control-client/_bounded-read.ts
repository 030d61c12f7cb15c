/** What {@link readAtMost} read: the bytes kept, and whether the body went on past them. */
export interface BoundedRead {
  bytes: Uint8Array;
  /** The body was longer than the bound: reading stopped there and the rest was cancelled. */
  cut: boolean;
}

// The requests whose body is being read: fetch follows a Request's signal only while the Request
// lives (undici holds it weakly), so one collected during the read would lose its timeout.
const reading = new Set<Request>();

/**
 * Reads a body up to `maxBytes` and cancels the rest, so an answer never costs more memory than
 * the bound; a body of exactly `maxBytes` is read whole. Rejects as the body's own read does. Pass
 * the `request` whose signal bounds the read, so that it lives until the body is read. Cancelling
 * is for a fetch `Response` a client reads (it closes that connection), never a server's request.
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
  if (request) reading.add(request);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: joined(chunks, size), cut: false };
      if (size + value.byteLength > maxBytes) {
        chunks.push(value.subarray(0, maxBytes - size));
        await reader.cancel().catch(() => {});
        return { bytes: joined(chunks, maxBytes), cut: true };
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    reader.releaseLock();
    if (request) reading.delete(request);
  }
}

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
