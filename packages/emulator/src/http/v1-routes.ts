import { getRouterParam, type H3, type H3Event } from 'h3';
import { exchangesOf } from '../core/_exchange-ring';
import { acceptSend } from '../core/accept-send';
import { listConnections, listTemplates } from '../core/connections';
import type { EmulatorCore } from '../core/emulator-core';
import { acceptedView, getMessage } from '../core/messages';
import { createSandboxEvent } from '../core/sandbox-events';
import { statusJson } from '../core/status';
import { DomainError } from '../domain/domain-error';
import { paginate } from './_pagination';
import { REQUESTS_CHARGE, runV1, type V1Call, type V1Result, type V1RouteSpec } from './_v1-pipeline';

const ok = (body: unknown): V1Result => ({ status: 200, body });

/** The /v1 API (spec 4) on an h3 app. */
export function registerV1Routes(app: H3, core: EmulatorCore): void {
  // Route specs are built once; a request only reads them.
  const status: V1RouteSpec = {
    scope: 'system.status.read',
    run: (call) => ({ status: 200, body: undefined, json: statusJson(call.core, call.caller) }),
  };
  const connections: V1RouteSpec = {
    scope: 'connections.read',
    run: (call) => ok(paginate(listConnections(call.core, call.caller), call.url)),
  };
  const templates: V1RouteSpec = {
    scope: 'templates.read',
    bucket: 'templates',
    run: (call) => ok(paginate(listTemplates(call.core, call.caller, idParam(call.event)), call.url)),
  };
  const message: V1RouteSpec = {
    scope: 'messages.read',
    run: (call) => ok(getMessage(call.core, call.caller, idParam(call.event))),
  };
  const sendSpec: V1RouteSpec = {
    scope: 'messages.send',
    bucket: 'sends',
    readsBody: true,
    holdsIdempotencyKey: true,
    run: send,
  };
  const sandboxEvent: V1RouteSpec = {
    scope: 'sandbox.events.create',
    sandboxOnly: true,
    readsBody: true,
    run: (call) => ({
      status: 202,
      body: createSandboxEvent(call.core, call.caller, call.body),
    }),
  };
  // Every call is kept for the HAR of the traffic (`_record-exchange.ts`).
  const ring = exchangesOf(core);
  const v1 = (spec: V1RouteSpec) => (event: H3Event) => runV1(core, event, spec, ring);
  app.get('/v1/status', v1(status));
  app.get('/v1/connections', v1(connections));
  app.get('/v1/connections/:id/templates', v1(templates));
  app.get('/v1/messages/:id', v1(message));
  app.post('/v1/messages', v1(sendSpec));
  app.post('/v1/sandbox/events', v1(sandboxEvent));
  // Last: any other method or path under /v1 is authenticated and counted like every call
  // (spec 8.2: RateLimit-* on every authenticated answer), then 404 naming what was asked.
  app.all('/v1/**', v1(noRoute));
}

const noRoute: V1RouteSpec = {
  run: (call) => {
    throw new DomainError('not_found', `No route for ${call.request.method} ${call.url.pathname}.`, {
      method: call.request.method,
      path: call.url.pathname,
    });
  },
};

/**
 * The route's decoded `:id`. An escape that does not decode stays as sent: ids are opaque
 * strings, so it is just an unknown id (404), as `allowMalformedURL` has the router treat it.
 */
function idParam(event: H3Event): string {
  const raw = getRouterParam(event, 'id') ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function send(call: V1Call): V1Result {
  // Always set: the send route's spec holds the Idempotency-Key.
  if (!call.ticket) throw new Error('POST /v1/messages runs with holdsIdempotencyKey.');
  const accepted = acceptSend(call.core, call.caller, call.ticket, call.body);
  return accepted.replayed
    ? {
        status: 202,
        body: acceptedView(accepted.record),
        headers: { 'idempotent-replayed': 'true' },
        charge: REQUESTS_CHARGE,
      }
    : { status: 202, body: acceptedView(accepted.record) };
}
