import { SANDBOX_ACTIVE_CONNECTION_ID, SANDBOX_DISCONNECTED_CONNECTION_ID } from '@parley/emulator';
import { Chalk } from 'chalk';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { emulatorContext } from '../_test/emulator-context';
import { listConnections, renderConnections } from './connections/index';
import { getMessage } from './messages/index';
import { send } from './send/index';
import { listTemplates, renderTemplates } from './templates/index';
import { renderTrigger, trigger } from './trigger/index';

// Generous on a loaded machine: these wait for real I/O, never for emulator time.
const PATIENCE = { timeout: 10_000, interval: 10 };

const { emulator, context } = emulatorContext();
afterAll(() => emulator.close());

describe('parley connections list', () => {
  it('lists both sandbox connections, the disconnected one greyed', async () => {
    const connections = await listConnections({}, context());
    expect(connections.map((connection) => [connection.id, connection.status])).toEqual([
      [SANDBOX_ACTIVE_CONNECTION_ID, 'active'],
      [SANDBOX_DISCONNECTED_CONNECTION_ID, 'disconnected'],
    ]);
    const table = renderConnections(connections, { ...context(), style: new Chalk({ level: 1 }) });
    const disconnectedRow = table
      .split('\n')
      .find((line) => line.includes(SANDBOX_DISCONNECTED_CONNECTION_ID));
    expect(disconnectedRow).toContain(`\u001b[90m${SANDBOX_DISCONNECTED_CONNECTION_ID}`);
  });
});

describe('parley templates list', () => {
  it('lists the templates of a connection with their bodies', async () => {
    const templates = await listTemplates({ connection: SANDBOX_ACTIVE_CONNECTION_ID }, context());
    expect(templates.map((template) => [template.name, template.language, template.variable_count])).toEqual([
      ['hello_world', 'en', 0],
      ['order_confirmation', 'fr', 2],
    ]);
    expect(renderTemplates(templates, context())).toMatch(
      /order_confirmation\s+fr\s+UTILITY\s+2\s+.*\{\{1\}\}/,
    );
  });

  it('says the connection is unknown (exit 1, not_found)', async () => {
    await expect(
      listTemplates({ connection: '00000000-0000-4000-8000-000000000000' }, context()),
    ).rejects.toMatchObject({ code: 1, body: { error: { code: 'not_found' } } });
  });
});

describe('parley trigger', () => {
  it('queues a sandbox event and says nobody listens when no endpoint subscribes', async () => {
    const result = await trigger({ eventType: 'message.received' }, context());
    expect(result).toMatchObject({ type: 'message.received', deliveries_queued: 0, livemode: false });
    expect(result.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(renderTrigger(result, context())).toContain('parley listen --forward-to');
  });

  it('refuses an unknown or non-synthetic event type before calling (exit 2), listing the valid ones', async () => {
    for (const eventType of ['message.sent', 'developer.application.created']) {
      await expect(trigger({ eventType }, context())).rejects.toMatchObject({
        code: 2,
        message: expect.stringContaining('message.received, message.status_updated'),
      });
    }
  });
});

describe('parley messages get', () => {
  it('reads a message, and with --watch follows it to its final status', async () => {
    const sent = await send(
      { connection: SANDBOX_ACTIVE_CONNECTION_ID, to: '+33612345678', text: 'hi' },
      context(),
    );
    expect(await getMessage({ id: sent.id }, context())).toMatchObject({ id: sent.id, status: 'queued' });
    const run = context();
    const watching = getMessage({ id: sent.id, watch: true, interval: 5 }, run);
    await vi.waitFor(() => expect(run.stderr.text()).toContain('queued'), PATIENCE);
    await emulator.clock.advance(5_000);
    expect((await watching).status).toBe('delivered');
    expect(run.stderr.text()).toContain('queued → delivered');
  });

  it('says an unknown id is not found (exit 1) with the request id', async () => {
    const failure = await getMessage({ id: '00000000-0000-4000-8000-000000000000' }, context()).catch(
      (error) => error,
    );
    expect(failure).toMatchObject({ code: 1, body: { error: { code: 'not_found' } } });
    expect(failure.message).toMatch(/request req_[0-9a-f]{32}/);
  });

  it('stops --watch on Ctrl-C with exit 130', async () => {
    const sent = await send(
      { connection: SANDBOX_ACTIVE_CONNECTION_ID, to: '+33612345678', text: 'hi' },
      context(),
    );
    const controller = new AbortController();
    const run = context({ signal: controller.signal });
    const watching = getMessage({ id: sent.id, watch: true, interval: 5 }, run).catch((error) => error);
    await vi.waitFor(() => expect(run.stderr.text()).toContain('queued'), PATIENCE);
    controller.abort();
    expect(await watching).toMatchObject({ code: 130 });
  });
});
