import type { H3 } from 'h3';
import type { EmulatorControl } from '../core/control';
import type { EmulatorCore } from '../core/emulator-core';
import { DomainError } from '../domain/domain-error';
import { isUuid } from '../domain/ids';
import { applicationFilter, type ControlCall, type ControlResult, controlHandler } from './_control-handler';
import { pageQueryOf, paginate } from './_pagination';

/** The control API of DESIGN §4 (plus the listing additions of the shared contract) under `/_emulator`. */
export function registerControlRoutes(app: H3, core: EmulatorCore, control: EmulatorControl): void {
  const route = (
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    path: string,
    run: (call: ControlCall) => ControlResult | Promise<ControlResult>,
  ) =>
    app[method](
      `/_emulator${path}`,
      controlHandler(core, path.includes('/:id') ? (call) => run(withWellFormedId(call)) : run),
    );
  const id = (call: ControlCall, index = 1) => call.segments[index] ?? '';
  const list = <Item>(call: ControlCall, items: readonly Item[]): ControlResult => ({
    status: 200,
    body: paginate(items, call.url),
  });

  route('get', '/health', () => ({ status: 200, body: control.health() }));
  route('post', '/reset', async () => ({ status: 200, body: await control.reset() }));
  route('get', '/clock', () => ({ status: 200, body: control.getClock() }));
  route('post', '/clock/advance', async (call) => ({
    status: 200,
    body: await control.advanceClock(fieldOf(call.body, 'ms')),
  }));

  route('get', '/workspaces', (call) => list(call, control.listWorkspaces()));
  route('post', '/workspaces', async (call) => ({
    status: 201,
    body: await control.createWorkspace(call.body),
  }));
  route('get', '/workspaces/:id/clock', (call) => ({
    status: 200,
    body: control.getWorkspaceClock(id(call)),
  }));
  route('post', '/workspaces/:id/clock/advance', async (call) => ({
    status: 200,
    body: await control.advanceWorkspaceClock(id(call), fieldOf(call.body, 'ms')),
  }));
  route('post', '/workspaces/:id/reset', async (call) => ({
    status: 200,
    body: await control.resetWorkspace(id(call)),
  }));
  route('get', '/applications', (call) =>
    list(
      call,
      control.listApplications().filter((app) => {
        const workspace = call.url.searchParams.get('workspace_id');
        return workspace === null || app.workspace_id === workspace;
      }),
    ),
  );
  route('post', '/applications', async (call) => ({
    status: 201,
    body: await control.createApplication(call.body),
  }));
  route('post', '/applications/:id/keys', async (call) => ({
    status: 201,
    body: await control.createKey(id(call), call.body),
  }));
  route('post', '/applications/:id/endpoints', async (call) => ({
    status: 201,
    body: await control.createEndpoint(id(call), call.body),
  }));
  // The console's additions: what an application can send through, and a send without a key.
  route('get', '/applications/:id/connections', (call) =>
    list(call, control.listApplicationConnections(id(call))),
  );
  route('post', '/applications/:id/messages', async (call) => ({
    status: 202,
    body: await control.sendMessage(id(call), call.body),
  }));
  route('post', '/applications/:id/connections', async (call) => ({
    status: 201,
    body: await control.createConnection(id(call), call.body),
  }));

  route('delete', '/keys/:id', async (call) => {
    await control.revokeKey(id(call));
    return { status: 204 };
  });

  route('get', '/endpoints', (call) => list(call, control.listEndpoints(applicationFilter(call.url))));
  route('patch', '/endpoints/:id', async (call) => ({
    status: 200,
    body: await control.updateEndpoint(id(call), call.body),
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
    body: await control.setChaos(id(call), call.body),
  }));
  route('get', '/endpoints/:id/chaos', (call) => ({ status: 200, body: control.getChaos(id(call)) }));
  route('delete', '/endpoints/:id/chaos', async (call) => {
    await control.clearChaos(id(call));
    return { status: 204 };
  });
  route('post', '/endpoints/:id/test', async (call) => ({
    status: 202,
    body: await control.testEndpoint(id(call)),
  }));

  route('get', '/deliveries', (call) => {
    const endpointId = call.url.searchParams.get('endpoint_id') ?? undefined;
    const applicationId = applicationFilter(call.url);
    return list(
      call,
      control.listDeliveries({
        ...(endpointId === undefined ? {} : { endpointId }),
        ...(applicationId === undefined ? {} : { applicationId }),
      }),
    );
  });
  route('post', '/deliveries/:id/replay', async (call) => ({
    status: 202,
    body: await control.replayDelivery(id(call)),
  }));

  route('get', '/usage', (call) => ({ status: 200, body: control.usage(applicationFilter(call.url)) }));
  route('post', '/connections/:id/disconnect', async (call) => ({
    status: 200,
    body: await control.disconnectConnection(id(call)),
  }));
  route('post', '/connections/:id/inbound', async (call) => ({
    status: 201,
    body: await control.receiveInbound(id(call), call.body),
  }));
  route('get', '/messages', (call) => ({
    status: 200,
    body: control.listMessagePage({ applicationId: applicationFilter(call.url), ...pageQueryOf(call.url) }),
  }));
  route('get', '/events', (call) => list(call, control.listEvents(applicationFilter(call.url))));

  route('get', '/magic-numbers', (call) => list(call, control.listMagicNumbers()));

  route('get', '/faults', (call) => list(call, control.listFaults()));
  route('post', '/faults', async (call) => ({ status: 201, body: await control.createFault(call.body) }));
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
function withWellFormedId(call: ControlCall): ControlCall {
  const id = call.segments[1] ?? '';
  if (!isUuid(id)) {
    const kind = KIND_BY_COLLECTION.get(call.segments[0] ?? '') ?? 'record';
    throw new DomainError('not_found', `No ${kind} ${id}.`, { [`${kind}_id`]: id });
  }
  return call;
}

function fieldOf(body: unknown, field: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined;
}
