import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { WEBHOOK_EVENT_TYPES } from '@parley/sdk';
import { createWebhookHandler } from '@parley/sdk/webhooks';

// The receiver process of the webhook-handler abuse test, built fresh from the SDK's source: one
// createWebhookHandler served on 127.0.0.1 in both forms, `/node` (handler.node(), as
// `http.createServer(handler.node())` serves it) and `/web` (the web handler behind the smallest
// Node adapter). Nothing catches a rejection here: one would end the process, as it would a user's.
// `GET /calls` tells what reached the handlers, and the process's memory.

const calls = new Map<string, number>();
const record = (what: string) => () => void calls.set(what, (calls.get(what) ?? 0) + 1);
const handler = createWebhookHandler({
  secret: process.env.PARLEY_WEBHOOK_SECRET!,
  on: Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type, record(`on ${type}`)])),
  onError: record('onError'),
  // Every malformed delivery has its own event id: no answer may come from the duplicate memory.
  dedupe: false,
});
const nodeForm = handler.node();

async function webForm(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === 'string') headers.set(name, value);
  const body = req.method === 'POST' ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null;
  const request = new Request(`http://127.0.0.1${req.url}`, {
    method: req.method!,
    headers,
    body,
    duplex: 'half',
  } as RequestInit);
  const response = await handler(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

const server = createServer((req, res) => {
  if (req.url === '/calls') {
    const answer = { calls: Object.fromEntries(calls), rss: process.memoryUsage().rss };
    return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  }
  return req.url === '/web' ? webForm(req, res) : nodeForm(req, res);
});
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
