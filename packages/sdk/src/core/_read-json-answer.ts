import { ConnectionError } from '../errors/connection-error';

/**
 * The most of an answer the client reads: the largest real answer (a page of 100 messages of 4,096
 * characters) is about 1 MB, so 16 MiB only stops a broken or hostile server from filling memory.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

const tooLarge = (maxBytes: number) =>
  new ConnectionError(
    `The API answered more than ${maxBytes / 1_048_576} MiB, which no Parley answer is: reading stopped there`,
  );

/**
 * Parses a success answer's JSON, reading at most `maxBytes`. A declared length within the bound
 * is read by the runtime's own `json()` (the common, fast case: the body cannot be longer); a
 * chunked answer is counted as it arrives and cancelled past the bound.
 */
export async function readJsonAnswer(response: Response, maxBytes = MAX_ANSWER_BYTES): Promise<unknown> {
  const declared = response.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared)) {
    if (Number(declared) > maxBytes) {
      void response.body?.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    return response.json();
  }
  if (!response.body) return response.json();
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      void reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value as Uint8Array<ArrayBuffer>);
  }
  return JSON.parse(await new Blob(chunks).text());
}
