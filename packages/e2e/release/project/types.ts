// Type-checked in the fresh project against the installed tarballs, twice: `module`/`moduleResolution`
// `nodenext` and `esnext`/`bundler` (strict, no emit). The @ts-expect-error lines prove the types are
// real: were an import to resolve to `any`, they would be unused and fail the check.
import {
  createEmulator,
  DEFAULT_SANDBOX_KEY,
  type EmulatorServer,
  SANDBOX_ACTIVE_CONNECTION_ID,
  startEmulatorServer,
} from '@parley/emulator';
import { isAPIError, type Message, Parley } from '@parley/sdk';
import { isWebhookVerificationError, verifyWebhook, type WebhookEvent } from '@parley/sdk/webhooks';

export async function sendOne(server: EmulatorServer): Promise<Message> {
  const parley = new Parley({ apiKey: server.sandboxKey, baseUrl: server.baseUrl, maxRetries: 0 });
  try {
    return await parley.messages.send({
      type: 'template',
      connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
      to: '+33612345678',
      template: { name: 'hello_world', language: 'en' },
    });
  } catch (error) {
    if (isAPIError(error)) console.error(error.status, error.code);
    throw error;
  }
}

export async function receive(request: Request, secret: string): Promise<WebhookEvent['type'] | string> {
  try {
    const event = await verifyWebhook(await request.text(), request.headers, secret);
    if (event.type === 'message.status_updated') return event.data.message.status;
    return event.type;
  } catch (error) {
    if (isWebhookVerificationError(error)) return error.reason;
    throw error;
  }
}

export async function inProcess(): Promise<string> {
  const emulator = createEmulator({ clock: 'frozen' });
  const parley = new Parley({
    apiKey: DEFAULT_SANDBOX_KEY,
    baseUrl: 'http://127.0.0.1:4010/v1',
    fetch: (input, init) => emulator.fetch(new Request(input, init)),
  });
  const status = await parley.status.get();
  // @ts-expect-error a template send takes no `text`: the send params are a discriminated union
  await parley.messages.send({ type: 'template', connection_id: 'c', to: '+33612345678', text: 'hi' });
  // @ts-expect-error verifyWebhook needs the secret
  await verifyWebhook('{}', new Headers());
  return status.environment;
}

export const start: typeof startEmulatorServer = startEmulatorServer;
