import { ConnectionError } from '../errors/connection-error';

/**
 * The most of an answer the client reads: the largest real answer (a page of 100 messages of 4,096
 * characters) is about 1 MB, so 16 MiB only stops a broken or hostile server from filling memory.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * Parses a success answer's JSON, reading at most `maxBytes`: a declared length over the bound is
 * refused unread, and every answer is counted as it arrives and cancelled past the bound (one
 * path, not a second through `json()` for a declared length: saves 19 B gzip in `{ Parley }`).
 */
export async function readJsonAnswer(response: Response, maxBytes = MAX_ANSWER_BYTES): Promise<unknown> {
  const reader = response.body?.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  // 0 without a Content-Length (NaN for a malformed one, never over the bound either).
  const declared = Number(response.headers.get('content-length'));
  for (let total = 0; ; ) {
    if (declared > maxBytes || total > maxBytes) {
      void reader?.cancel().catch(() => undefined);
      throw new ConnectionError(
        `The API answered more than ${maxBytes / 1_048_576} MiB, which no Parley answer is: reading stopped there`,
      );
    }
    const { done, value } = (await reader?.read()) ?? { done: true };
    if (done) return JSON.parse(await new Blob(chunks).text());
    total += value.byteLength;
    chunks.push(value as Uint8Array<ArrayBuffer>);
  }
}
