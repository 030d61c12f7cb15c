// CommonJS consumer (type-checked under `nodenext` only): `@parley/sdk` through its `require`
// types (`.d.cts`). @parley/emulator is ESM only, so it is not imported here.
import { type Message, Parley } from '@parley/sdk';
import { verifyWebhook, type WebhookEvent } from '@parley/sdk/webhooks';

export async function both(body: string, headers: Headers, secret: string): Promise<[Message, WebhookEvent]> {
  const parley = new Parley({
    apiKey: 'prl_sandbox_parleyEmulatorDefaultSandboxKey1',
    baseUrl: 'http://127.0.0.1:4010/v1',
  });
  // @ts-expect-error an id is a string
  await parley.messages.get(42);
  return [await parley.messages.get('msg'), await verifyWebhook(body, headers, secret)];
}
