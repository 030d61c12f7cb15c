// A server that answers the CLI's /v1 and /_emulator calls with strings a test chooses: escape
// sequences, bidi overrides, C1 controls. Shapes are right, so every command gets to print them.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The temporary endpoint `parley listen` registered: where its listener is, and the secret it asked for. */
export interface RegisteredEndpoint {
  url: string;
  secret: string;
}

/** A running hostile server on 127.0.0.1. */
export interface HostileApi {
  /** `http://127.0.0.1:PORT/v1`, for PARLEY_BASE_URL. */
  baseUrl: string;
  /** Where `listen --forward-to` sends: every POST is answered 400 with a hostile body. */
  appUrl: string;
  /** Where `webhooks doctor` sends: every POST is answered 200 with a hostile outcome header and body. */
  receiverUrl: string;
  /** The next endpoint `parley listen` registers. */
  nextEndpoint(): Promise<RegisteredEndpoint>;
  close(): Promise<void>;
}

/** `GET /v1/messages/MISSING_MESSAGE_ID` is a 404 and `POST /v1/messages` with this text a 400, both with hostile messages. */
export const MISSING_MESSAGE_ID = 'missing';
/** The text of a `POST /v1/messages` the server refuses. */
export const REFUSED_TEXT = 'refuse me';

/**
 * Starts the server. `text(field)` gives every string of every answer (called anew each time);
 * header values keep only what HTTP lets through (printable ASCII and U+0080–U+00FF, so the C1
 * controls). Request bodies are read to their end.
 */
export async function startHostileApi(text: (field: string) => string): Promise<HostileApi> {
  const waiting: ((endpoint: RegisteredEndpoint) => void)[] = [];
  const registered: RegisteredEndpoint[] = [];
  const header = (field: string) => text(field).replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
  const send = (response: ServerResponse, status: number, body?: unknown) => {
    response.writeHead(status, {
      'content-type': 'application/json',
      'x-request-id': header('x-request-id'),
    });
    response.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const refusal = (field: string) => ({
    error: { code: text(`${field}.code`), message: text(`${field}.message`), request_id: text('request_id') },
  });
  const list = (items: unknown[]) => ({ object: 'list', data: items, has_more: false, next_cursor: null });
  const message = (status = text('message.status')) => ({
    id: text('message.id'),
    object: 'message',
    direction: 'outbound',
    connection_id: text('message.connection_id'),
    to: text('message.to'),
    from: null,
    type: 'template',
    text: null,
    template: { name: text('template.name'), language: text('template.language') },
    status,
    error: { code: text('message.error.code'), message: text('message.error.message') },
    client_reference: text('message.client_reference'),
    created_at: text('message.created_at'),
    updated_at: text('message.updated_at'),
    livemode: false,
  });
  const fault = () => ({
    object: 'fault',
    id: text('fault.id'),
    method: text('fault.method'),
    path: text('fault.path'),
    key_id: null,
    key_prefix: text('fault.key_prefix'),
    times: 2,
    remaining: 1,
    workspace_id: null,
    created_at: text('fault.created_at'),
    fault: { status: 503, code: text('fault.code') },
  });

  const routes: [
    string,
    RegExp,
    (request: IncomingMessage, response: ServerResponse, body: string) => void,
  ][] = [
    [
      'GET',
      /^\/v1\/status$/,
      (_request, response) =>
        send(response, 200, {
          status: text('status.status'),
          application_id: text('status.application_id'),
          workspace_id: text('status.workspace_id'),
          environment: text('status.environment'),
          scopes: [text('status.scope')],
          capabilities: [text('status.capability')],
          timestamp: text('status.timestamp'),
          sandbox_external_calls: false,
        }),
    ],
    [
      'GET',
      /^\/v1\/connections$/,
      (_request, response) =>
        send(
          response,
          200,
          list([
            {
              object: 'connection',
              id: text('connection.id'),
              status: text('connection.status'),
              phone_number: text('connection.phone_number'),
              name: text('connection.name'),
              quality_rating: text('connection.quality_rating'),
              waba_id: text('connection.waba_id'),
              livemode: false,
              created_at: text('connection.created_at'),
            },
          ]),
        ),
    ],
    [
      'GET',
      /^\/v1\/connections\/[^/]+\/templates$/,
      (_request, response) =>
        send(
          response,
          200,
          list([
            {
              object: 'template',
              connection_id: text('template.connection_id'),
              name: text('template.name'),
              language: text('template.language'),
              category: text('template.category'),
              variable_count: 0,
              body: text('template.body'),
            },
          ]),
        ),
    ],
    [
      'GET',
      /^\/v1\/messages\/[^/]+$/,
      (request, response) =>
        request.url?.startsWith(`/v1/messages/${MISSING_MESSAGE_ID}`)
          ? send(response, 404, refusal('not_found'))
          : send(response, 200, message()),
    ],
    [
      'POST',
      /^\/v1\/messages$/,
      (_request, response, body) =>
        (JSON.parse(body) as { text?: string }).text === REFUSED_TEXT
          ? send(response, 400, refusal('validation_error'))
          : send(response, 202, message()),
    ],
    [
      'POST',
      /^\/v1\/sandbox\/events$/,
      (_request, response) =>
        send(response, 202, {
          object: 'sandbox_event',
          id: text('sandbox_event.id'),
          type: text('sandbox_event.type'),
          deliveries_queued: 0,
        }),
    ],
    [
      'GET',
      /^\/_emulator\/health$/,
      (_request, response) =>
        send(response, 200, {
          ok: true,
          version: text('health.version'),
          // Count names are the server's: an own "constructor" or "__proto__" must print as a name.
          counts: JSON.parse(
            `{"constructor": 1, "__proto__": 2, ${JSON.stringify(text('health.count'))}: 3}`,
          ),
          persistence: { ok: false, error: text('health.persistence_error') },
        }),
    ],
    [
      'GET',
      /^\/_emulator\/clock$/,
      (_request, response) => send(response, 200, { now: text('clock.now'), mode: text('clock.mode') }),
    ],
    [
      'POST',
      /^\/_emulator\/clock\/advance$/,
      (_request, response) => send(response, 200, { now: text('clock.now') }),
    ],
    [
      'GET',
      /^\/_emulator\/workspaces\/[^/]+\/clock$/,
      (_request, response) =>
        send(response, 200, {
          workspace_id: text('clock.workspace_id'),
          own_clock: true,
          now: text('clock.now'),
          mode: 'frozen',
        }),
    ],
    ['GET', /^\/_emulator\/faults$/, (_request, response) => send(response, 200, list([fault()]))],
    ['POST', /^\/_emulator\/faults$/, (_request, response) => send(response, 201, fault())],
    ['DELETE', /^\/_emulator\/faults\/[^/]+$/, (_request, response) => send(response, 404, refusal('fault'))],
    [
      'GET',
      /^\/_emulator\/magic-numbers$/,
      (_request, response) =>
        send(
          response,
          200,
          list([
            {
              number: text('magic.number'),
              behaviour: text('magic.behaviour'),
              description: text('magic.description'),
            },
          ]),
        ),
    ],
    [
      'GET',
      /^\/_emulator\/endpoints\/[^/]+\/chaos$/,
      (_request, response) =>
        send(response, 200, {
          endpoint_id: text('chaos.endpoint_id'),
          seed: 7,
          duplicate: { next: 1 },
          applied: { [text('chaos.applied')]: 2 },
        }),
    ],
    [
      'POST',
      /^\/_emulator\/applications\/[^/]+\/endpoints$/,
      (_request, response, body) => {
        const { url, secret } = JSON.parse(body) as RegisteredEndpoint;
        const endpoint = { url, secret };
        const resolve = waiting.shift();
        if (resolve) resolve(endpoint);
        else registered.push(endpoint);
        send(response, 201, {
          id: text('endpoint.id'),
          url,
          events: [text('endpoint.event')],
          secret,
        });
      },
    ],
    ['DELETE', /^\/_emulator\/endpoints\/[^/]+$/, (_request, response) => send(response, 204)],
    ['GET', /^\/_emulator\/stream$/, (_request, response) => streamActivity(response, text)],
    [
      'POST',
      /^\/app$/,
      (_request, response) => {
        response.writeHead(400, {
          'content-type': 'text/plain',
          'parley-webhook-outcome': header('app.outcome'),
        });
        response.end(text('app.body'));
      },
    ],
    [
      'POST',
      /^\/receiver$/,
      (_request, response) => {
        response.writeHead(200, {
          'content-type': 'text/plain',
          'parley-webhook-outcome': header('receiver.outcome'),
        });
        response.end(text('receiver.body'));
      },
    ],
  ];

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    // Every body is read to its end before answering: a Node request stream is never cut short.
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
      const route = routes.find(([method, pattern]) => method === request.method && pattern.test(path));
      if (route) route[2](request, response, Buffer.concat(chunks).toString('utf8'));
      else send(response, 404, refusal('unknown_route'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: `${origin}/v1`,
    appUrl: `${origin}/app`,
    receiverUrl: `${origin}/receiver`,
    nextEndpoint: () => {
      const endpoint = registered.shift();
      return endpoint ? Promise.resolve(endpoint) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One item of every kind the CLI knows, and one it does not, then the stream stays open. */
function streamActivity(response: ServerResponse, text: (field: string) => string): void {
  const at = text('activity.at');
  const items = [
    {
      kind: 'request',
      method: text('request.method'),
      path: text('request.path'),
      status: 404,
      duration_ms: text('request.duration_ms'),
      request_id: text('request.request_id'),
      key_prefix: text('request.key_prefix'),
      fault: text('request.fault'),
    },
    {
      kind: 'control',
      method: text('control.method'),
      path: text('control.path'),
      status: 200,
      duration_ms: 1,
    },
    { kind: 'event', type: text('event.type'), event: { id: text('event.id') } },
    {
      kind: 'message',
      status: text('message.status'),
      message: { id: text('message.id'), direction: 'outbound', to: text('message.to'), from: null },
    },
    {
      kind: 'delivery',
      status: text('delivery.status'),
      chaos: text('delivery.chaos'),
      delivery: {
        event_type: text('delivery.event_type'),
        event_id: text('delivery.event_id'),
        attempts: [{ status_code: null, error: text('delivery.error'), chaos: text('delivery.chaos') }],
      },
    },
    { kind: 'clock', now: text('clock.now'), mode: text('clock.mode') },
    { kind: text('activity.kind'), note: text('activity.note') },
  ];
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  response.write(
    items
      .map((item, index) => {
        const data = JSON.stringify({ seq: index + 1, at, application_ids: [], ...item });
        return `id: ${index + 1}\ndata: ${data}\n\n`;
      })
      .join(''),
  );
}
