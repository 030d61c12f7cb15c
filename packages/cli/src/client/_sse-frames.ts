/** One server-sent event: the fields the activity stream uses. */
export interface SseFrame {
  id?: string;
  data?: string;
  /** The reconnection delay the server asks for, in ms. */
  retry?: number;
}

/**
 * The events of a `text/event-stream` body, as the HTML standard parses them: lines end with
 * LF, CRLF or CR, `:` starts a comment, a blank line ends an event, several `data` lines join
 * with LF. Only what has a field is yielded (a keep-alive comment is not).
 */
export async function* sseFrames(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseFrame> {
  const decoder = new TextDecoder();
  let buffer = '';
  let frame: SseFrame = {};
  let data: string[] = [];
  const lines = function* (final: boolean) {
    for (;;) {
      const end = buffer.search(/\r\n|\r|\n/);
      // A lone CR at the end may be the first half of a CRLF still on its way.
      if (end < 0 || (!final && end === buffer.length - 1 && buffer.endsWith('\r'))) return;
      const line = buffer.slice(0, end);
      buffer = buffer.slice(buffer.startsWith('\r\n', end) ? end + 2 : end + 1);
      yield line;
    }
  };
  const take = (line: string): SseFrame | undefined => {
    if (line === '') {
      const done = data.length > 0 ? { ...frame, data: data.join('\n') } : frame;
      frame = {};
      data = [];
      return Object.keys(done).length > 0 ? done : undefined;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) frame.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) frame.retry = Number(value);
    return undefined;
  };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (const line of lines(false)) {
      const done = take(line);
      if (done) yield done;
    }
  }
  buffer += decoder.decode();
  for (const line of lines(true)) {
    const done = take(line);
    if (done) yield done;
  }
}
