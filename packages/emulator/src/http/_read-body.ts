// Ours, not h3's readBody with assertBodySize (issue 22): srvx's limit under it (1.0.8) cancels the
// Node request stream when a body is over the limit, declared or streamed, and cancelling a Node
// request stream mid-read crashed the server (issue 8). Here a refused body is drained instead
// (discardRest), and the JSON depth is bounded before parsing.
import { DomainError } from '../domain/domain-error';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './_json-depth';

/** Largest request body accepted (DESIGN §2: over 100 KiB is 413). */
export const MAX_BODY_BYTES = 100 * 1024;

/** The outcome of reading a body, kept aside so that auth errors can still come first. */
export type BodyRead = { ok: true; text: string } | { ok: false; error: DomainError };

const tooLarge = (limit: number) =>
  new DomainError('payload_too_large', `Request bodies are limited to ${limit} bytes.`, {
    limit_bytes: limit,
  });

/**
 * Reads at most `limit` ({@link MAX_BODY_BYTES} unless a route takes more, as an import does)
 * bytes of the body; never throws.
 */
export async function readBodyText(request: Request, limit: number = MAX_BODY_BYTES): Promise<BodyRead> {
  const length = request.headers.get('content-length');
  const declared = length === null ? Number.NaN : Number(length);
  if (declared > limit) return { ok: false, error: tooLarge(limit) };
  try {
    // A declared length within the limit is enforced by the HTTP parser: read it the cheap way
    // (on Node, srvx reads the socket directly instead of building a web stream).
    if (declared >= 0) {
      const text = await request.text();
      // An in-process Request may declare any length: check what actually came.
      if (text.length > limit) return { ok: false, error: tooLarge(limit) };
      return { ok: true, text };
    }
    if (!request.body) return { ok: true, text: '' };
    const reader = request.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        void discardRest(reader);
        return { ok: false, error: tooLarge(limit) };
      }
      chunks.push(value);
    }
    return { ok: true, text: new TextDecoder().decode(Buffer.concat(chunks)) };
  } catch {
    return {
      ok: false,
      error: new DomainError('invalid_json', 'The request body could not be read.', { reason: 'unreadable' }),
    };
  }
}

/** How much of a refused body is read and thrown away so the client can read its 413. */
const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Reads the rest of a refused body and throws it away. Never cancels: cancelling a Node request
 * stream mid-read crashed the server. Closing the socket instead would reset it under a client
 * that is still sending, before it reads the 413. Past {@link DISCARD_LIMIT_BYTES} reading stops;
 * the stalled request then ends at the server's request timeout.
 */
async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let discarded = 0;
  try {
    while (discarded < DISCARD_LIMIT_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      discarded += value.byteLength;
    }
  } catch {
    // The client went away: nothing left to drain.
  }
}

/** Whether the request declares `application/json` (parameters such as charset allowed). */
export function isJsonContentType(request: Request): boolean {
  const type = request.headers.get('content-type');
  if (!type) return false;
  const semicolon = type.indexOf(';');
  return (semicolon === -1 ? type : type.slice(0, semicolon)).trim().toLowerCase() === 'application/json';
}

/** 415 unless JSON. */
export function requireJsonContentType(request: Request): void {
  if (!isJsonContentType(request)) {
    throw new DomainError(
      'unsupported_media_type',
      'Send the body as JSON with "Content-Type: application/json".',
    );
  }
}

/** Parses a read body; `emptyAs` is what an empty body means (control calls: `{}`). */
export function parseJsonBody(read: BodyRead, emptyAs?: unknown): unknown {
  if (!read.ok) throw read.error;
  if (read.text.trim() === '' && emptyAs !== undefined) return emptyAs;
  if (nestsDeeperThan(read.text, MAX_JSON_DEPTH)) {
    // DESIGN §2: a validation error names its field; here the body as a whole.
    throw new DomainError('validation_error', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`, {
      field: 'body',
      reason: 'too_deep',
      max_depth: MAX_JSON_DEPTH,
    });
  }
  try {
    return JSON.parse(read.text);
  } catch {
    throw new DomainError('invalid_json', 'The request body is not valid JSON.');
  }
}
