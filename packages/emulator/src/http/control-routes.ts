import type { H3 } from 'h3';
import type { EmulatorControl } from '../core/control';
import type { ControlPageQuery } from '../core/control-types';
import type { EmulatorCore } from '../core/emulator-core';
import { DomainError } from '../domain/domain-error';
import { parseIdleTimeout } from '../domain/idle-timeout';
import { isUuid } from '../domain/ids';
import {
  applicationFilter,
  type ControlCall,
  type ControlResult,
  controlHandler,
  publishChanges,
  sameOriginOnly,
} from './_control-handler';
import { limitOf } from './_pagination';

/** The control API of DESIGN §4 (plus the listing additions of the shared contract) under `/_emulator`. */
export function registerControlRoutes(app: H3, core: EmulatorCore, control: EmulatorControl): void {
  const middleware = [publishChanges(core), sameOriginOnly];
  const route = (
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    path: string,
    run: (call: ControlCall) => ControlResult | Promise<ControlResult>,
  ) =>
    app[method](
      `/_emulator${path}`,
      controlHandler(core, path.includes('/:id') ? (call) => run(withWellFormedId(call, path)) : run),
      { middleware },
    );
  const id = (call: ControlCall) => call.id;
  // The body as the control's input: every control call checks its input at run time (400 naming
  // the field), exactly as for an in-process caller who passed it unchecked.
  const input = <Input>(call: ControlCall, field?: string): Input =>
    (field === undefined ? call.body : fieldOf(call.body, field)) as Input;
  const ok = async (body: unknown): Promise<ControlResult> => ({ status: 200, body: await body });

  route('get', '/health', () => ok(control.health()));
  route('post', '/reset', async () => ({ status: 200, body: await control.reset() }));
  route('get', '/clock', () => ok(control.getClock()));
  route('post', '/clock/advance', async (call) => ({
    status: 200,
    body: await control.advanceClock(input(call, 'ms')),
  }));
  route('get', '/idle', (call) =>
    ok(control.idle({ timeoutMs: parseIdleTimeout(call.url.searchParams.get('timeout_ms')) })),
  );

  route('get', '/workspaces', (call) => ok(control.listWorkspaces(pageOf(call.url))));
  route('post', '/workspaces', async (call) => ({
    status: 201,
    body: await control.createWorkspace(input(call)),
  }));
  route('get', '/workspaces/:id/clock', (call) => ok(control.getWorkspaceClock(id(call))));
  route('post', '/workspaces/:id/clock/advance', async (call) => ({
    status: 200,
    body: await control.advanceWorkspaceClock(id(call), input(call, 'ms')),
  }));
  route('post', '/workspaces/:id/reset', async (call) => ({
    status: 200,
    body: await control.resetWorkspace(id(call)),
  }));
  route('get', '/applications', (call) =>
    ok(control.listApplications({ ...pageOf(call.url), ...filter(call.url, 'workspace_id', 'workspaceId') })),
  );
  route('post', '/applications', async (call) => ({
    status: 201,
    body: await control.createApplication(input(call)),
  }));
  route('post', '/applications/:id/keys', async (call) => ({
    status: 201,
    body: await control.createKey(id(call), input(call)),
  }));
  route('post', '/applications/:id/endpoints', async (call) => ({
    status: 201,
    body: await control.createEndpoint(id(call), input(call)),
  }));
  // The console's additions: what an application can send through, and a send without a key.
  route('get', '/applications/:id/connections', (call) =>
    ok(control.listApplicationConnections(id(call), pageOf(call.url))),
  );
  route('post', '/applications/:id/messages', async (call) => ({
    status: 202,
    body: await control.sendMessage(id(call), input(call)),
  }));
  route('post', '/applications/:id/connections', async (call) => ({
    status: 201,
    body: await control.createConnection(id(call), input(call)),
  }));
  // The console's conversation simulator (issue 26): threads, one thread, the customer writing.
  route('get', '/applications/:id/conversations', (call) =>
    ok(
      control.listConversations(id(call), {
        ...pageOf(call.url),
        ...filter(call.url, 'connection_id', 'connectionId'),
      }),
    ),
  );
  route('get', '/applications/:id/conversation', (call) =>
    ok(
      control.getConversation(id(call), {
        connectionId: call.url.searchParams.get('connection_id') ?? '',
        number: call.url.searchParams.get('number') ?? '',
      }),
    ),
  );
  route('post', '/applications/:id/conversation/messages', async (call) => ({
    status: 201,
    body: await control.messageAsCustomer(id(call), input(call)),
  }));

  route('delete', '/keys/:id', async (call) => {
    await control.revokeKey(id(call));
    return { status: 204 };
  });

  route('get', '/endpoints', (call) =>
    ok(
      control.listEndpoints({ ...pageOf(call.url), ...filter(call.url, 'application_id', 'applicationId') }),
    ),
  );
  route('patch', '/endpoints/:id', async (call) => ({
    status: 200,
    body: await control.updateEndpoint(id(call), input(call)),
  }));
  route('delete', '/endpoints/:id', async (call) => {
    await control.deleteEndpoint(id(call));
    return { status: 204 };
  });
  route('post', '/endpoints/:id/rotate-secret', async (call) => ({
    status: 200,
    body: await control.rotateSecret(id(call)),
  }));
  route('put', '/endpoints/:id/chaos', async (call) => ({
    status: 200,
    body: await control.setChaos(id(call), input(call)),
  }));
  route('get', '/endpoints/:id/chaos', (call) => ok(control.getChaos(id(call))));
  route('delete', '/endpoints/:id/chaos', async (call) => {
    await control.clearChaos(id(call));
    return { status: 204 };
  });
  route('post', '/endpoints/:id/test', async (call) => ({
    status: 202,
    body: await control.testEndpoint(id(call)),
  }));

  route('get', '/deliveries', (call) =>
    ok(
      control.listDeliveries({
        ...pageOf(call.url),
        ...filter(call.url, 'endpoint_id', 'endpointId'),
        ...filter(call.url, 'application_id', 'applicationId'),
      }),
    ),
  );
  route('post', '/deliveries/:id/replay', async (call) => ({
    status: 202,
    body: await control.replayDelivery(id(call)),
  }));

  route('get', '/usage', (call) => ok(control.usage(applicationFilter(call.url))));
  route('post', '/connections/:id/disconnect', async (call) => ({
    status: 200,
    body: await control.disconnectConnection(id(call)),
  }));
  route('post', '/connections/:id/inbound', async (call) => ({
    status: 201,
    body: await control.receiveInbound(id(call), input(call)),
  }));
  route('get', '/messages', (call) =>
    ok(control.listMessages({ ...pageOf(call.url), ...filter(call.url, 'application_id', 'applicationId') })),
  );
  route('get', '/events', (call) =>
    ok(control.listEvents({ ...pageOf(call.url), ...filter(call.url, 'application_id', 'applicationId') })),
  );

  route('get', '/magic-numbers', (call) => ok(control.listMagicNumbers(pageOf(call.url))));

  route('get', '/faults', (call) => ok(control.listFaults(pageOf(call.url))));
  route('post', '/faults', async (call) => ({ status: 201, body: await control.createFault(input(call)) }));
  route('delete', '/faults', async () => {
    await control.clearFaults();
    return { status: 204 };
  });
  route('delete', '/faults/:id', async (call) => {
    await control.deleteFault(id(call));
    return { status: 204 };
  });
}

/** What the collection of a `/_emulator/{collection}/:id` path holds, for the 404's wording. */
const KIND_BY_COLLECTION = new Map([
  ['workspaces', 'workspace'],
  ['applications', 'application'],
  ['endpoints', 'endpoint'],
  ['deliveries', 'delivery'],
  ['connections', 'connection'],
  ['keys', 'key'],
  ['faults', 'fault'],
]);

/**
 * Every control id is a UUID: anything else (`__proto__`, `constructor`, `../x`) is a 404 before
 * any lookup, so no outside string ever reaches a collection as a key.
 */
function withWellFormedId(call: ControlCall, path: string): ControlCall {
  if (!isUuid(call.id)) {
    const kind = KIND_BY_COLLECTION.get(path.split('/')[1] ?? '') ?? 'record';
    throw new DomainError('not_found', `No ${kind} ${call.id}.`, { [`${kind}_id`]: call.id });
  }
  return call;
}

/** A list request's `limit` (checked here, 400 on bad text) and `cursor`. */
function pageOf(url: URL): ControlPageQuery {
  const cursor = url.searchParams.get('cursor');
  return { limit: limitOf(url), ...(cursor === null ? {} : { cursor }) };
}

/** A query filter given as `param`, under the control method's name for it. */
function filter<Name extends string>(url: URL, param: string, name: Name): { [key in Name]?: string } {
  const value = url.searchParams.get(param);
  return (value === null ? {} : { [name]: value }) as { [key in Name]?: string };
}

function fieldOf(body: unknown, field: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined;
}
