import type { Socket } from 'node:net';
import { EMULATOR_ERROR_STATUS } from '../domain/error-codes';
import { newRequestId } from '../domain/ids';

/**
 * Answers a request Node's HTTP parser refused (bad method, raw non-ASCII path, duplicate
 * `Content-Length`, headers over the limit) in the spec's error format with a request id, instead
 * of Node's empty 400/431. Registered as the server's `clientError` listener; the socket is closed
 * after the answer because the parser cannot find the next request's start.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset or a timeout has nobody left to answer.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  // The request was already answered (a 401 before a malformed chunked body was read): a second
  // answer to one request would be read as the answer to the next. Node's own rule: close instead.
  if (socket.bytesWritten > 0) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? EMULATOR_ERROR_STATUS.headers_too_large : EMULATOR_ERROR_STATUS.validation_error;
  const requestId = newRequestId();
  const body = JSON.stringify({
    error: tooLarge
      ? {
          code: 'headers_too_large',
          message: 'The request headers are larger than the emulator accepts (16 KiB).',
          request_id: requestId,
          details: {},
        }
      : {
          code: 'validation_error',
          message: 'The request is not valid HTTP/1.1 and could not be parsed.',
          request_id: requestId,
          details: { reason: 'malformed_http', parser_code: error.code ?? 'unknown' },
        },
  });
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      'content-type: application/json\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${requestId}\r\n` +
      'connection: close\r\n\r\n' +
      body,
  );
}
