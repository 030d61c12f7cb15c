import { fileURLToPath } from 'node:url';
import {
  type Connection,
  isAPIError,
  isConfigurationError,
  isConnectionError,
  isMessageFailedError,
  isRateLimitError,
  isWaitForTimeoutError,
  type Message,
  Parley,
} from '@parley/sdk';

/** What {@link main} reports: the delivered message, or why it did not get there. */
export type SendOutcome =
  | { ok: true; message: Message }
  | { ok: false; reason: string; message?: Message | undefined };

/** Options of {@link main}; the defaults suit a real run. */
export interface SendExampleOptions {
  /** Recipient; a sandbox number ending in `0000` fails on purpose. */
  to?: string;
  /** Milliseconds between status polls. */
  pollInterval?: number;
  /** Where progress lines go. */
  log?: (line: string) => void;
}

/**
 * Sends the `order_confirmation` template through the first active connection, then waits
 * until the message is delivered. Every failure becomes a one-line reason instead of a stack.
 */
export async function main(client: Parley, options: SendExampleOptions = {}): Promise<SendOutcome> {
  const log = options.log ?? console.log;
  try {
    const connection = await firstActiveConnection(client);
    const { data: sent, requestId } = await client.messages
      .send({
        type: 'template',
        connection_id: connection.id,
        to: options.to ?? '+33612345678',
        template: { name: 'order_confirmation', language: 'fr', variables: ['Ada', 'A-1042'] },
        client_reference: 'order-A-1042',
      })
      .withResponse();
    log(`sent ${sent.id} (${sent.status}) through ${connection.name}, request ${requestId}`);

    const delivered = await client.messages.waitFor(sent.id, {
      until: 'delivered',
      timeout: 30_000,
      pollInterval: options.pollInterval ?? 1_000,
    });
    log(`delivered at ${delivered.updated_at}`);
    return { ok: true, message: delivered };
  } catch (error) {
    return { ok: false, ...explain(error) };
  }
}

async function firstActiveConnection(client: Parley): Promise<Connection> {
  for await (const connection of client.connections.list()) {
    if (connection.status === 'active') return connection;
  }
  throw new Error('This application has no active connection');
}

/** Turns the SDK's typed errors into what a person should do next. */
function explain(error: unknown): { reason: string; message?: Message } {
  if (isMessageFailedError(error)) {
    return { reason: `the message failed: ${error.failedMessage.error?.code}`, message: error.failedMessage };
  }
  if (isWaitForTimeoutError(error)) return { reason: `no delivery in time (${error.message})` };
  if (isRateLimitError(error))
    return { reason: `rate limited on ${error.bucket}: retry in ${error.retryAfter} ms` };
  if (isAPIError(error)) return { reason: `${error.code}: ${error.message}` };
  if (isConfigurationError(error)) return { reason: error.message };
  if (isConnectionError(error)) return { reason: `cannot reach the API: ${error.message}` };
  throw error;
}

// Run directly (`node src/send-message.ts`): the key and base URL come from PARLEY_API_KEY and
// PARLEY_BASE_URL; a missing one is a ConfigurationError naming both the option and the variable.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const outcome = await main(new Parley());
    if (!outcome.ok) {
      console.error(`✗ ${outcome.reason}`);
      process.exitCode = 1;
    }
  } catch (error) {
    if (!isConfigurationError(error)) throw error;
    console.error(`✗ ${error.message}`);
    process.exitCode = 2;
  }
}
