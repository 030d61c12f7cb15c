import type { ErrorBody } from '@parley/sdk';
import { FastResponse } from 'srvx';
import { DomainError } from '../domain/domain-error';

const JSON_TYPE = 'application/json';

/**
 * A JSON answer with the request id header every answer carries (DESIGN §2). srvx's
 * `FastResponse` (what h3 itself answers with) is a real `Response` to callers, but on Node it is
 * written to the socket straight from the string and the plain header object, without building
 * web streams or a `Headers` (the hot path of every call).
 */
export function jsonResponse(
  status: number,
  body: unknown,
  requestId: string,
  headers?: Record<string, string>,
): Response {
  return jsonTextResponse(status, status === 204 ? null : JSON.stringify(body), requestId, headers);
}

/** {@link jsonResponse} of a body already serialised (`null`: none, for a 204). */
export function jsonTextResponse(
  status: number,
  text: string | null,
  requestId: string,
  headers?: Record<string, string>,
): Response {
  const responseHeaders: Record<string, string> = { 'content-type': JSON_TYPE, 'x-request-id': requestId };
  if (headers) Object.assign(responseHeaders, headers);
  const response = new FastResponse(text, { status, headers: responseHeaders });
  // Kept beside the answer for the HAR of /v1 traffic: reading a FastResponse back would rebuild it.
  (response as AnsweredResponse)[ANSWER_PARTS] = { text, headers: responseHeaders };
  return response;
}

/** Where {@link jsonResponse} leaves the text and headers it built an answer from. */
export const ANSWER_PARTS: unique symbol = Symbol('parley.answerParts');

/** A response of {@link jsonResponse}, with the parts it was built from. */
export type AnsweredResponse = Response & {
  [ANSWER_PARTS]?: { text: string | null; headers: Readonly<Record<string, string>> };
};

/** The spec's error body (spec 7) for a domain error. */
export function errorBody(error: DomainError, requestId: string): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      request_id: requestId,
      // spec 7 lists details on every error: an empty object when there is nothing to add.
      details: error.details ?? {},
    },
  };
}

/** An error answer; anything that is not a `DomainError` becomes a 500 that hides its internals. */
export function errorResponse(error: unknown, requestId: string, headers?: Record<string, string>): Response {
  const known = error instanceof DomainError ? error : internalError(error);
  return jsonResponse(known.status, errorBody(known, requestId), requestId, headers);
}

function internalError(cause: unknown): DomainError {
  console.error('[parley-emulator] unexpected error:', cause);
  return new DomainError('internal_error', 'The emulator hit an unexpected error. It has been logged.');
}
