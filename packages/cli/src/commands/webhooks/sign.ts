import { signWebhook } from '@parley/sdk';
import type { CommandContext } from '../../context';
import { usageError } from '../../exit-error';
import { readInputFile } from '../../input-file';
import { terminalSafeText } from '../../output/terminal-safe';
import { defineCommand } from '../command-module';
import { webhookSecrets } from './_secrets';

/** `parley webhooks sign`. */
export interface SignOptions {
  secret?: string[];
  body: string;
  id?: string;
  timestamp?: string | number;
  url?: string;
}

/** A signed delivery: exactly what Parley would send. */
export interface SignedDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Signs a body as Parley does (the SDK's `signWebhook`), for testing a receiver by hand. The id
 * defaults to the body's `id` and the timestamp to now. The body is signed byte for byte as
 * given, so send it unchanged.
 */
export async function sign(options: SignOptions, context: CommandContext): Promise<SignedDelivery> {
  const secrets = webhookSecrets(options.secret, context.env);
  const body = (await readInputFile(options.body, '--body')).toString('utf8');
  const id = options.id ?? bodyId(body);
  if (!id) throw usageError('no event id: the body has no "id" field, pass --id evt_…');
  const timestamp = options.timestamp === undefined ? undefined : Number(options.timestamp);
  if (timestamp !== undefined && !(Number.isSafeInteger(timestamp) && timestamp >= 0)) {
    throw usageError('--timestamp must be unix seconds, digits only');
  }
  const signed = await signWebhook({
    payload: body,
    secret: secrets,
    id,
    ...(timestamp === undefined ? {} : { timestamp }),
  });
  return {
    url: options.url ?? 'http://127.0.0.1:3000/webhooks',
    headers: { 'content-type': 'application/json', ...signed },
    body,
  };
}

function bodyId(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { id?: unknown };
    return typeof parsed.id === 'string' ? parsed.id : undefined;
  } catch {
    return undefined;
  }
}

/** A curl command line that replays the signed delivery; every part single-quoted for the shell. */
export function curlLine(delivery: SignedDelivery): string {
  const headers = Object.entries(delivery.headers).map(
    ([name, value]) => `-H ${shellQuote(`${name}: ${value}`)}`,
  );
  return [
    'curl -sS -X POST',
    shellQuote(delivery.url),
    ...headers,
    '--data-binary',
    shellQuote(delivery.body),
  ].join(' ');
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

export default defineCommand({
  run: sign,
  // The body is sent byte for byte: its line breaks must stay line breaks in the curl line.
  ownText: true,
  render: (delivery) => {
    const line = curlLine(delivery);
    const shown = terminalSafeText(line);
    return shown === line
      ? line
      : `${shown}\n# The body holds control characters, shown above as \\uXXXX: this line does not send the signed bytes. Use --json.`;
  },
  json: ({ headers, body }) => ({ headers, body }),
});
