import type { H3 } from 'h3';
import type { EmulatorCore } from '../core/emulator-core';
import { createSandboxEvent } from '../core/sandbox-events';
import { sendMessage } from '../core/send-message';
import {
  acceptedView,
  type Caller,
  getMessage,
  getStatus,
  listConnections,
  listTemplates,
} from '../core/v1-operations';
import { DomainError } from '../domain/domain-error';
import {
  bodyFingerprint,
  findReplay,
  idempotencySlot,
  inUseError,
  parseIdempotencyKey,
} from '../domain/idempotency';
import { parseSendParams } from '../domain/send-params';
import { paginate } from './_pagination';
import {
  REQUESTS_CHARGE,
  rejectIfExhausted,
  runV1,
  type V1Call,
  type V1Result,
  type V1RouteSpec,
} from './_v1-pipeline';

const ok = (body: unknown): V1Result => ({ status: 200, body });

/** The /v1 API (spec 4) on an h3 app. */
export function registerV1Routes(app: H3, getCore: () => EmulatorCore): void {
  // Route specs are built once; a request only reads them.
  const status: V1RouteSpec = {
    scope: 'system.status.read',
    run: (call) => ok(getStatus(call.core, call.caller)),
  };
  const connections: V1RouteSpec = {
    scope: 'connections.read',
    run: (call) => ok(paginate(listConnections(call.core, call.caller), call.url)),
  };
  const templates: V1RouteSpec = {
    scope: 'templates.read',
    bucket: 'templates',
    run: (call) => ok(paginate(listTemplates(call.core, call.caller, param(call.url, 3)), call.url)),
  };
  const message: V1RouteSpec = {
    scope: 'messages.read',
    run: (call) => ok(getMessage(call.core, call.caller, param(call.url, 3))),
  };
  const sendSpec: V1RouteSpec = {
    scope: 'messages.send',
    bucket: 'sends',
    readsBody: true,
    beforeBody: markInFlight,
    afterCall: releaseInFlight,
    run: send,
  };
  const sandboxEvent: V1RouteSpec = {
    scope: 'sandbox.events.create',
    sandboxOnly: true,
    readsBody: true,
    run: (call) => ({ status: 202, body: createSandboxEvent(call.core, call.caller, call.body) }),
  };
  app.get('/v1/status', (event) => runV1(getCore(), event, status));
  app.get('/v1/connections', (event) => runV1(getCore(), event, connections));
  app.get('/v1/connections/:id/templates', (event) => runV1(getCore(), event, templates));
  app.get('/v1/messages/:id', (event) => runV1(getCore(), event, message));
  app.post('/v1/messages', (event) => runV1(getCore(), event, sendSpec));
  app.post('/v1/sandbox/events', (event) => runV1(getCore(), event, sandboxEvent));
  // Last: any other method or path under /v1 is authenticated and counted like every call
  // (spec 8.2: RateLimit-* on every authenticated answer), then 404 naming what was asked.
  app.all('/v1/**', (event) => runV1(getCore(), event, noRoute));
}

const noRoute: V1RouteSpec = {
  run: (call) => {
    throw new DomainError('not_found', `No route for ${call.request.method} ${call.url.pathname}.`, {
      method: call.request.method,
      path: call.url.pathname,
    });
  },
};

/** The decoded path segment at `index` (`/v1/messages/{id}` → index 3). */
function param(url: URL, index: number): string {
  const raw = url.pathname.split('/')[index] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * Marks this key's Idempotency-Key as in flight while the body is read, so a second request
 * with it meanwhile gets 409 `idempotency_key_in_use` (DESIGN §2). Returns the slot it marked,
 * `true` when the key is already in flight, `undefined` without a key.
 */
function markInFlight(core: EmulatorCore, caller: Caller, request: Request): string | true | undefined {
  const header = request.headers.get('idempotency-key');
  if (!header) return undefined;
  const slot = idempotencySlot(caller.key.id, header);
  if (core.inFlight.has(slot)) return true;
  core.inFlight.add(slot);
  return slot;
}

function releaseInFlight(core: EmulatorCore, prepared: unknown): void {
  if (typeof prepared === 'string') core.inFlight.delete(prepared);
}

function send(call: V1Call): V1Result {
  const { core, caller } = call;
  const idempotencyKey = parseIdempotencyKey(call.request.headers.get('idempotency-key'));
  if (call.prepared === true) throw inUseError();
  // The slot marked in flight is this one (same key, same header): it is not built twice.
  const slot =
    typeof call.prepared === 'string' ? call.prepared : idempotencySlot(caller.key.id, idempotencyKey);
  const fingerprint = bodyFingerprint(call.body);
  const now = core.nowIn(caller.application.workspace_id);
  const original = findReplay(core.state.idempotency, core.state.messages, slot, fingerprint, now);
  if (original) {
    call.charge = REQUESTS_CHARGE;
    return { status: 202, body: acceptedView(original), headers: { 'idempotent-replayed': 'true' } };
  }
  rejectIfExhausted(core, caller.key.id, ['sends'], now);
  const params = parseSendParams(call.body);
  const record = sendMessage(core, caller, params, { slot, fingerprint });
  return { status: 202, body: acceptedView(record) };
}
