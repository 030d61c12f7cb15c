/** A delivery body is larger than the receiver's `maxBodyBytes`: answered 413, never verified. */
export class BodyTooLarge extends Error {}

/**
 * Default `maxBodyBytes` of `createWebhookHandler`: 1 MiB. A Parley event is a few KB (a message
 * text is at most 4,096 characters), so this only stops a body no delivery can be.
 */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * Joins a body's chunks, keeping at most `maxBytes`: past it the rest is read to the end and
 * dropped (memory stays bounded; a Node request stream is never cancelled mid-read, so the
 * sender still reads the 413), then {@link BodyTooLarge} is thrown.
 */
export async function readBounded(
  chunks: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
): Promise<Uint8Array> {
  const kept: Uint8Array<ArrayBuffer>[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    // Strings come from a stream someone called setEncoding on: counted as their UTF-8 bytes.
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    total += bytes.byteLength;
    if (total <= maxBytes) kept.push(bytes as Uint8Array<ArrayBuffer>);
  }
  if (total > maxBytes) throw new BodyTooLarge();
  // A Blob joins the chunks without a Node Buffer (this module is runtime-neutral).
  return new Uint8Array(await new Blob(kept).arrayBuffer());
}

/** The chunks of a web `ReadableStream` (not every runtime makes the stream itself iterable). */
export async function* streamChunks(stream: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> {
  if (!stream) return;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** The size of a body a framework already read raw (`express.raw()`'s Buffer, a string). */
export function byteLengthOf(body: string | Uint8Array): number {
  return typeof body === 'string' ? encoder.encode(body).byteLength : body.byteLength;
}
