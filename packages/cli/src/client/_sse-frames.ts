// Ours, not eventsource-parser (issue 22, measured against 4.1.3): its maxBufferSize stops the
// parser until reset(), and a reset inside an event parses the rest of that event as a new one: fed
// an event of 30 data lines of 100 KiB and then a good item, a reset-on-overflow wrapper passed on
// an 819,207-character event made of the oversized one's tail. Skipping the rest of an event means
// finding the blank line that ends it, which is this file's line scanner; the library would add
// only the field parsing (takeLine) and a dependency, at no gain in speed (a 24 MiB event in 64 KiB
// chunks: 66-1,184 ms there, 98-166 ms here; in 16-byte chunks 5.8-6.7 s there, 2.8-3.3 s here).
/** One server-sent event: the fields the activity stream uses. */
export interface SseFrame {
  id?: string;
  data?: string;
  /** The reconnection delay the server asks for, in ms. */
  retry?: number;
  /**
   * Set on a frame of its own, yielded the moment an event grows past the bound: its data is
   * dropped and the rest of it is read without being kept, up to the blank line that ends it.
   */
  oversized?: true;
}

/**
 * How large one event may grow: its field lines (`id:`, `data:`, …) up to the blank line that
 * ends it, line ends and comments not counted. An activity item is a few KB; this only stops a
 * stream that is not the emulator's, or has gone wrong.
 */
export const MAX_EVENT_BYTES = 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;

/**
 * The events of a `text/event-stream` body, as the HTML standard parses them: lines end with
 * LF, CRLF or CR, `:` starts a comment, a blank line ends an event, several `data` lines join
 * with LF. Only what has a field is yielded (a keep-alive comment is not).
 *
 * Bounded and linear: each byte is looked at once (a long line is never rescanned), a comment is
 * dropped as it streams, and an event over {@link MAX_EVENT_BYTES} yields `{ oversized: true }`
 * once, then is read to its end without being kept. Memory stays under the bound plus a chunk.
 */
export async function* sseFrames(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseFrame> {
  // Lines are split on bytes (CR and LF never occur inside a UTF-8 sequence), then decoded whole.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let firstLine = true;
  // The current line: its kept pieces, whether it has any byte yet, whether it is a comment.
  let pieces: Uint8Array[] = [];
  let lineEmpty = true;
  let comment = false;
  // A CR ended the last chunk: an LF opening the next one belongs to it.
  let afterCr = false;
  // The current event.
  let eventBytes = 0;
  let oversized = false;
  let frame: SseFrame = {};
  let data: string[] = [];

  const endEvent = (): SseFrame | undefined => {
    const done = data.length > 0 ? { ...frame, data: data.join('\n') } : frame;
    frame = {};
    data = [];
    eventBytes = 0;
    oversized = false;
    return Object.keys(done).length > 0 ? done : undefined;
  };
  const takeLine = (line: string) => {
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) frame.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) frame.retry = Number(value);
  };
  // The line ended: what it completes, if anything.
  const endLine = (): SseFrame | undefined => {
    const kept = pieces;
    const empty = lineEmpty;
    const first = firstLine;
    pieces = [];
    lineEmpty = true;
    firstLine = false;
    if (empty) return endEvent();
    if (comment || oversized) return undefined;
    const line = decoder.decode(kept.length === 1 ? kept[0]! : Buffer.concat(kept));
    // A byte order mark opens the stream, not a field name.
    takeLine(first ? line.replace(/^\uFEFF/, '') : line);
    return undefined;
  };
  // Part of the current line; true when it makes the event cross the bound.
  const absorb = (bytes: Uint8Array): boolean => {
    if (bytes.length === 0) return false;
    if (lineEmpty) {
      lineEmpty = false;
      comment = bytes[0] === COLON;
    }
    if (comment || oversized) return false;
    eventBytes += bytes.length;
    if (eventBytes <= MAX_EVENT_BYTES) {
      pieces.push(bytes);
      return false;
    }
    oversized = true;
    pieces = [];
    data = [];
    return true;
  };

  for await (const chunk of body) {
    let position = 0;
    if (afterCr && chunk.length > 0) {
      afterCr = false;
      if (chunk[0] === LF) position = 1;
    }
    // The next CR and LF at or after `position`, found once each: the scan never goes back.
    let nextCr = -2;
    let nextLf = -2;
    while (position < chunk.length) {
      if (nextCr !== -1 && nextCr < position) nextCr = chunk.indexOf(CR, position);
      if (nextLf !== -1 && nextLf < position) nextLf = chunk.indexOf(LF, position);
      const end = nextCr < 0 ? nextLf : nextLf < 0 ? nextCr : Math.min(nextCr, nextLf);
      if (absorb(chunk.subarray(position, end < 0 ? chunk.length : end))) yield { oversized: true };
      if (end < 0) break;
      position = end + 1;
      if (chunk[end] === CR) {
        if (position === chunk.length) afterCr = true;
        else if (chunk[position] === LF) position++;
      }
      const done = endLine();
      if (done) yield done;
    }
  }
  // The stream ended: an event without its blank line is dropped, as the standard says.
}
