// Imports nothing from `node:`: it works with whatever request and response objects it is given,
// so this module stays in the runtime-neutral build.
import type { DeliveryAnswer, DeliveryProcessor } from './_process-delivery';
import { readBounded } from './_read-bounded';
import { WEBHOOK_OUTCOME_HEADER } from './headers';

/** What the Node listener needs of a request: Node's `IncomingMessage`, an Express or a raw Fastify request. */
export interface NodeWebhookRequest extends AsyncIterable<Uint8Array | string> {
  method?: string | undefined;
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Set by a body parser that ran first: raw (`express.raw`: a Buffer) is used, parsed is refused. */
  body?: unknown;
  /** Node sets these once something read the stream. */
  readableDidRead?: boolean | undefined;
  readableEnded?: boolean | undefined;
}

/** What the Node listener needs of a response: Node's `ServerResponse` (also Express's, Fastify's `reply.raw`). */
export interface NodeWebhookResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(chunk?: string): unknown;
}

/** A listener for `http.createServer`, an Express route or Fastify's raw request and reply. */
export type NodeWebhookListener = (req: NodeWebhookRequest, res: NodeWebhookResponse) => Promise<void>;

const PARSED_BODY =
  'The request body was already read by a body parser, but the signature covers the raw bytes. ' +
  "Register no JSON parser on the webhook route: mount it before express.json(), or use express.raw({ type: 'application/json' }) on it; " +
  'on Fastify, give the route a content-type parser that leaves the body unread; on Koa, add the webhook route before bodyParser() from @koa/bodyparser.';

/** The Node adapter of a delivery processor: reads the raw body itself and writes the answer. */
export function nodeListener(
  process: DeliveryProcessor,
  report: (error: unknown) => void,
): NodeWebhookListener {
  return async (req, res) => {
    const { body } = req;
    const raw = typeof body === 'string' || body instanceof Uint8Array;
    let answer: DeliveryAnswer;
    if (!raw && req.method === 'POST' && (body != null || req.readableDidRead || req.readableEnded)) {
      // A parsed body cannot be turned back into the signed bytes: a set-up error, not a bad
      // delivery. 500 so nothing is lost: Parley retries until the route is fixed.
      report(new TypeError(PARSED_BODY));
      answer = { status: 500, error: 'body_already_parsed', message: PARSED_BODY };
    } else {
      answer = await process(req.method ?? 'GET', req.headers, async (maxBytes) =>
        raw ? body : readBounded(req, maxBytes),
      );
    }
    writeAnswer(res, answer);
  };
}

function writeAnswer(res: NodeWebhookResponse, { status, outcome, ...body }: DeliveryAnswer): void {
  res.statusCode = status;
  if (status === 405) res.setHeader('allow', 'POST');
  if (outcome) res.setHeader(WEBHOOK_OUTCOME_HEADER, outcome);
  if (!body.error) return void res.end();
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}
