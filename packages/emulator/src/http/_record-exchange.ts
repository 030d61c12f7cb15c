import type { IncomingMessage } from 'node:http';
import type { H3Event } from 'h3';
import type { Exchange } from '../core/_exchange-ring';
import type { ActivityEntry } from '../core/activity-feed';
import { ANSWER_PARTS, type AnsweredResponse } from './_respond';

// Issue 23: what a call keeps for the HAR survives into V8's old generation, and that copying,
// not the recording itself, is what recording costs (the same tree allocating the exchanges but
// keeping none ran at 0.99 of the tree recording nothing). So an exchange keeps only what nothing
// else keeps: the call's activity entry stands for its method, path, request id, caller, time and
// duration; the request body is the text as read (no JSON.stringify of the parsed body); the
// answer is the text and header object it was built from.

type NodeBacked = { runtime?: { node?: { req?: IncomingMessage } } };

/**
 * The exchange `GET /_emulator/har` shows for an answered /v1 call (`core/_exchange-ring.ts`):
 * the request's URL and headers, the JSON body its handler read (`requestBody`), and the text and
 * headers the answer was built from.
 */
export function exchangeOf(
  event: H3Event,
  response: Response,
  activity: ActivityEntry,
  requestBody: string | undefined,
): Exchange {
  const parts = (response as AnsweredResponse)[ANSWER_PARTS];
  const request = event.req;
  return {
    activity,
    url: event.url,
    // Node's raw list is already made; `request.headers` would build Node's header object on
    // top of it (what `_request-header.ts` avoids on the hot path).
    requestHeaders: (request as NodeBacked).runtime?.node?.req?.rawHeaders ?? request.headers,
    requestBody,
    status: response.status,
    responseHeaders: parts?.headers,
    responseBody: parts?.text ?? undefined,
  };
}
