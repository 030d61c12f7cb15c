import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createEmulator,
  DEFAULT_APPLICATION_ID,
  type Emulator,
  SANDBOX_ACTIVE_CONNECTION_ID,
  SANDBOX_DISCONNECTED_CONNECTION_ID,
} from '@parley/emulator';
import {
  APIUserAbortError,
  AuthenticationError,
  ConflictError,
  MessageFailedError,
  NotFoundError,
  Parley,
  type ParleyOptions,
  PermissionError,
  RateLimitError,
  type SendMessageParams,
  ValidationError,
  WaitForTimeoutError,
} from '@parley/sdk';
import { verifyWebhook } from '@parley/sdk/webhooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Every SDK call against the real emulator, in process, on a frozen clock: no port, no sleeping.
const BASE_URL = 'http://127.0.0.1:4010/v1';
let emulator: Emulator;

beforeEach(() => {
  emulator = createEmulator({ clock: 'frozen' });
});

afterEach(async () => {
  await emulator.close();
});

function client(options: ParleyOptions = {}): Parley {
  return new Parley({
    apiKey: emulator.sandboxKey,
    baseUrl: BASE_URL,
    fetch: (input, init) => emulator.fetch(new Request(input, init)),
    ...options,
  });
}

async function failure(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

const text = (overrides: Partial<SendMessageParams> = {}): SendMessageParams =>
  ({
    type: 'text',
    connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
    to: '+15550123456',
    text: 'Bonjour',
    ...overrides,
  }) as SendMessageParams;

describe('every resource', () => {
  it('status.get names the sandbox application, with request id and rate limit', async () => {
    const { data, requestId, rateLimit } = await client().status.get().withResponse();
    expect(data).toMatchObject({
      status: 'authenticated',
      application_id: DEFAULT_APPLICATION_ID,
      environment: 'sandbox',
    });
    expect(requestId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(rateLimit).toMatchObject({ limit: 60, remaining: 59 });
  });

  it('connections.list pages and iterates the two sandbox connections', async () => {
    const parley = client();
    const page = await parley.connections.list({ limit: 1 });
    expect(page.data).toHaveLength(1);
    expect(page.has_more).toBe(true);
    const ids: string[] = [];
    for await (const connection of parley.connections.list({ limit: 1 })) ids.push(connection.id);
    expect(ids.sort()).toEqual([SANDBOX_ACTIVE_CONNECTION_ID, SANDBOX_DISCONNECTED_CONNECTION_ID].sort());
  });

  it('connections.listTemplates lists templates with the templates bucket', async () => {
    const { data, rateLimit } = await client()
      .connections.listTemplates(SANDBOX_ACTIVE_CONNECTION_ID)
      .withResponse();
    expect(data.data.map((template) => template.name)).toContain('order_confirmation');
    expect(rateLimit?.limit).toBe(10);
  });

  it('messages.send (text and template) and messages.get', async () => {
    const parley = client();
    const sent = await parley.messages.send(text({ client_reference: 'order-42' }));
    expect(sent).toMatchObject({ object: 'message', status: 'queued', client_reference: 'order-42' });
    const template = await parley.messages.send({
      type: 'template',
      connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
      to: '+15550123456',
      template: { name: 'order_confirmation', language: 'fr', variables: ['Ana', 'A-42'] },
    });
    expect(template.type).toBe('template');
    expect((await parley.messages.get(sent.id)).id).toBe(sent.id);
  });

  it('replays a send with the same Idempotency-Key instead of sending twice', async () => {
    const parley = client();
    const first = await parley.messages.send(text(), { idempotencyKey: 'order-42' });
    const again = await parley.messages.send(text(), { idempotencyKey: 'order-42' }).withResponse();
    expect(again.data.id).toBe(first.id);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
  });

  it('messages.waitFor follows the clock to delivered', async () => {
    const parley = client();
    const sent = await parley.messages.send(text());
    const waiting = parley.messages.waitFor(sent.id, {
      until: 'delivered',
      timeout: 10_000,
      pollInterval: 5,
    });
    await emulator.clock.advance(2_000);
    await emulator.clock.advance(3_000);
    expect((await waiting).status).toBe('delivered');
  });

  it('messages.waitFor tells onStatus each status as the clock moves, and stops at once on its signal', async () => {
    const parley = client();
    const sent = await parley.messages.send(text());
    const statuses: string[] = [];
    const waiting = parley.messages.waitFor(sent.id, {
      until: 'delivered',
      timeout: 10_000,
      pollInterval: 5,
      onStatus: (seen) => statuses.push(seen.status),
    });
    await vi.waitFor(() => expect(statuses).toEqual(['queued']));
    await emulator.clock.advance(2_000);
    await vi.waitFor(() => expect(statuses).toEqual(['queued', 'sent']));
    await emulator.clock.advance(3_000);
    expect((await waiting).status).toBe('delivered');
    expect(statuses).toEqual(['queued', 'sent', 'delivered']);

    const controller = new AbortController();
    let polls = 0;
    const error = await failure(
      parley.messages.waitFor((await parley.messages.send(text())).id, {
        until: 'delivered',
        pollInterval: 5,
        signal: controller.signal,
        onPoll: () => {
          polls += 1;
          if (polls === 3) controller.abort(new Error('enough'));
        },
      }),
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(((error as Error).cause as Error).message).toBe('enough');
    expect(polls).toBe(3);
  });

  it('messages.waitFor throws MessageFailedError for an unreachable recipient, and times out politely', async () => {
    const parley = client();
    const failed = await parley.messages.send(text({ to: '+15550000000' }));
    const error = await failure(parley.messages.waitFor(failed.id, { until: 'delivered' }));
    expect(error).toBeInstanceOf(MessageFailedError);
    expect((error as MessageFailedError).failedMessage.error?.code).toBe('recipient_unreachable');

    const sent = await parley.messages.send(text());
    const timeout = await failure(
      parley.messages.waitFor(sent.id, { until: 'sent', timeout: 50, pollInterval: 10 }),
    );
    expect(timeout).toBeInstanceOf(WaitForTimeoutError);
    expect((timeout as WaitForTimeoutError).lastSeen?.status).toBe('queued');
  });

  it('sandbox.events.create queues a synthetic event', async () => {
    const result = await client().sandbox.events.create({ type: 'message.received' });
    expect(result).toMatchObject({ type: 'message.received', livemode: false, deliveries_queued: 0 });
  });
});

describe('webhooks from the emulator', () => {
  it('verifyWebhook accepts a real delivery with the endpoint secret, and refuses it with another', async () => {
    const received: { body: string; headers: Record<string, string | string[] | undefined> }[] = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => {
        body += chunk;
      });
      request.on('end', () => {
        received.push({ body, headers: request.headers });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = receiver.address() as AddressInfo;
      const endpoint = await emulator.control.createEndpoint(DEFAULT_APPLICATION_ID, {
        url: `http://127.0.0.1:${port}/hooks`,
        events: ['webhook.test'],
      });
      const queued = await client().sandbox.events.create({ type: 'webhook.test' });
      expect(queued.deliveries_queued).toBe(1);
      await emulator.clock.advance(0);
      await emulator.idle();
      const [delivery] = received;
      const event = await verifyWebhook(delivery!.body, delivery!.headers, endpoint.secret);
      expect(event).toMatchObject({ id: queued.id, type: 'webhook.test' });
      await expect(
        verifyWebhook(delivery!.body, delivery!.headers, 'whsec_00000000000000000000000000000000'),
      ).rejects.toMatchObject({
        reason: 'signature_mismatch',
      });
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe('every error class, produced for real', () => {
  it('401 AuthenticationError for an unknown key', async () => {
    const error = await failure(
      client({ apiKey: 'prl_sandbox_00000000000000000000000000000000' }).status.get(),
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({
      status: 401,
      code: 'invalid_api_key',
      requestId: expect.stringMatching(/^req_/),
    });
  });

  it('403 PermissionError for a missing scope', async () => {
    const { key } = await emulator.control.createKey(DEFAULT_APPLICATION_ID, {
      scopes: ['system.status.read'],
    });
    const error = await failure(client({ apiKey: key }).connections.list());
    expect(error).toBeInstanceOf(PermissionError);
    expect(error).toMatchObject({
      code: 'insufficient_scope',
      details: { required_scope: 'connections.read' },
    });
  });

  it('403 PermissionError sandbox_only for a live key', async () => {
    const live = await emulator.control.createApplication({ name: 'Live', environment: 'live' });
    const { key } = await emulator.control.createKey(live.id, { accept_agreement: true });
    const error = await failure(client({ apiKey: key }).sandbox.events.create({ type: 'webhook.test' }));
    expect(error).toBeInstanceOf(PermissionError);
    expect(error).toMatchObject({ status: 403, code: 'sandbox_only' });
  });

  it('404 NotFoundError for an unknown message', async () => {
    const error = await failure(client().messages.get('00000000-0000-4000-8000-000000000000'));
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it('400 ValidationError with the field', async () => {
    const error = await failure(client().messages.send(text({ text: '' })));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ code: 'validation_error', details: { field: 'text' } });
  });

  it('409 ConflictError for a reused idempotency key and an inactive connection', async () => {
    const parley = client();
    await parley.messages.send(text(), { idempotencyKey: 'same' });
    const reused = await failure(parley.messages.send(text({ text: 'Autre' }), { idempotencyKey: 'same' }));
    expect(reused).toBeInstanceOf(ConflictError);
    expect(reused).toMatchObject({ code: 'idempotency_key_reused' });
    const inactive = await failure(
      parley.messages.send(text({ connection_id: SANDBOX_DISCONNECTED_CONNECTION_ID })),
    );
    expect(inactive).toMatchObject({ status: 409, code: 'connection_inactive' });
  });

  it('429 RateLimitError with bucket and window when a bucket runs out', async () => {
    const parley = client({ maxRetryAfter: 0 });
    for (let call = 0; call < 10; call++)
      await parley.connections.listTemplates(SANDBOX_ACTIVE_CONNECTION_ID);
    const error = await failure(parley.connections.listTemplates(SANDBOX_ACTIVE_CONNECTION_ID));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      bucket: 'templates',
      limit: 10,
      remaining: 0,
    });
    expect((error as RateLimitError).retryAfter).toBeGreaterThan(0);
  });
});
