import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createEmulator, DEFAULT_APPLICATION_ID, type Emulator } from '@parley/emulator';
import {
  canonicalJson,
  Parley,
  SANDBOX_EVENT_TYPES,
  SCOPES,
  verifyWebhook,
  WEBHOOK_EVENT_TYPES,
} from '@parley/sdk';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// Real deliveries of every event type, from both a sandbox and a (simulated) live application,
// checked against the `webhooks` section of docs/openapi.yaml: headers, body schema, canonical form.

type Json = Record<string, unknown>;
const documentPath = fileURLToPath(new URL('../../../docs/openapi.yaml', import.meta.url));
const document = parse(readFileSync(documentPath, 'utf8')) as Json;
const DOCUMENT_ID = 'https://parley.invalid/openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...document, $id: DOCUMENT_ID });
const validator = (pointer: string) =>
  ajv.getSchema(`${DOCUMENT_ID}${pointer}`) ?? ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });

const ACTIVE = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
const BASE = 'http://127.0.0.1:4010/v1';

interface Captured {
  headers: IncomingHttpHeaders;
  body: string;
  secret: string;
}

let emulator: Emulator;
let receiver: Server;
const captured: Captured[] = [];
const secretsByPath = new Map<string, string>();

function client(apiKey: string) {
  return new Parley({
    apiKey,
    baseUrl: BASE,
    fetch: (input, init) => emulator.fetch(new Request(input, init)),
  });
}

async function settle(ms = 0) {
  await emulator.clock.advance(ms);
  await emulator.idle();
}

beforeAll(async () => {
  emulator = createEmulator({ clock: 'frozen' });
  receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    captured.push({
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      secret: secretsByPath.get(req.url ?? '') ?? '',
    });
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const register = async (applicationId: string, path: string) => {
    const endpoint = await emulator.control.createEndpoint(applicationId, {
      url: `${origin}${path}`,
      events: [...WEBHOOK_EVENT_TYPES],
    });
    secretsByPath.set(path, endpoint.secret);
  };

  // Sandbox: every synthetic type, the console test event, and a real send's status changes.
  await register(DEFAULT_APPLICATION_ID, '/sandbox');
  const sandbox = client(emulator.sandboxKey);
  for (const type of SANDBOX_EVENT_TYPES) await sandbox.sandbox.events.create({ type });
  const endpoints = (await emulator.control.listEndpoints({ applicationId: DEFAULT_APPLICATION_ID })).data;
  await emulator.control.testEndpoint(endpoints[0]!.id);
  const template = { name: 'hello_world', language: 'en', variables: [] };
  await sandbox.messages.send({ type: 'template', connection_id: ACTIVE, to: '+33612345678', template });
  await sandbox.messages.send({ type: 'template', connection_id: ACTIVE, to: '+33600000000', template });

  // Live (simulated): connection events, inbound, sent → delivered → read, application created.
  const liveApp = await emulator.control.createApplication({ name: 'live', environment: 'live' });
  await register(liveApp.id, '/live');
  const live = client(
    (await emulator.control.createKey(liveApp.id, { scopes: [...SCOPES], accept_agreement: true })).key,
  );
  const connection = await emulator.control.createConnection(liveApp.id, {
    phone_number: '+15550199001',
    name: 'Live',
  });
  await emulator.control.receiveInbound(connection.id, { from: '+33611112222', text: 'Bonjour' });
  await live.messages.send({
    type: 'text',
    connection_id: connection.id,
    to: '+33611112222',
    text: 'Merci !',
  });
  await emulator.control.createApplication({ name: 'second live app', environment: 'live' });
  await emulator.control.disconnectConnection(connection.id);

  await settle(10_000);
});

afterAll(async () => {
  await emulator.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('real webhook deliveries match the webhooks section of docs/openapi.yaml', () => {
  it('delivered every event type, from sandbox and live applications', () => {
    const types = new Set(captured.map((delivery) => (JSON.parse(delivery.body) as { type: string }).type));
    expect([...types].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    const statuses = captured
      .map(
        (delivery) =>
          JSON.parse(delivery.body) as {
            type: string;
            livemode: boolean;
            data: { message?: { status?: string } };
          },
      )
      .filter((event) => event.type === 'message.status_updated')
      .map((event) => `${event.livemode ? 'live' : 'sandbox'} ${event.data.message?.status}`);
    expect(statuses).toEqual(
      expect.arrayContaining([
        'sandbox sent',
        'sandbox delivered',
        'sandbox failed',
        'live sent',
        'live delivered',
        'live read',
      ]),
    );
  });

  it('sends headers and a body of the documented schema, in canonical form, verifiable with the SDK', async () => {
    expect(captured.length).toBeGreaterThan(12);
    for (const delivery of captured) {
      const event = JSON.parse(delivery.body) as { type: string; id: string };
      const operation = `#/webhooks/${event.type}/post`;
      const bodySchema = validator(`${operation}/requestBody/content/application~1json/schema`);
      expect(bodySchema(event), `${event.type}: ${ajv.errorsText(bodySchema.errors)}\n${delivery.body}`).toBe(
        true,
      );
      const union = validator('#/components/schemas/WebhookEvent');
      expect(union(event), `${event.type} matches exactly one WebhookEvent variant`).toBe(true);
      for (const name of ['ParleyEventId', 'ParleyTimestamp', 'ParleySignature']) {
        const parameter = (document.components as { parameters: Record<string, Json> }).parameters[name]!;
        const value = delivery.headers[String(parameter.name).toLowerCase()];
        const headerSchema = validator(`#/components/parameters/${name}/schema`);
        expect(headerSchema(value), `${event.type} header ${String(parameter.name)}: ${String(value)}`).toBe(
          true,
        );
      }
      expect(delivery.headers['content-type']).toMatch(/^application\/json/);
      expect(delivery.headers['parley-event-id']).toBe(event.id);
      expect(delivery.body).toBe(canonicalJson(event));
      await expect(verifyWebhook(delivery.body, delivery.headers, delivery.secret)).resolves.toMatchObject({
        id: event.id,
      });
    }
  });
});
