import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { InFlightCalls } from './in-flight-calls';

/** What a client can offer its user as ready-made requests. */
export function registerPrompts(server: McpServer, calls: InFlightCalls): void {
  server.registerPrompt(
    'test_webhook_receiver',
    {
      title: 'Test my webhook receiver',
      description: 'Register a local receiver, send it real and hostile deliveries, and grade it',
      argsSchema: { url: z.string().describe('the receiver, e.g. http://127.0.0.1:3000/webhooks') },
    },
    calls.wrap(({ url }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Test my webhook receiver at ${url} against the Parley emulator:`,
              `1. create_endpoint with url ${url}; keep the secret it returns (it is shown only once) and give it to my receiver's configuration if it needs one.`,
              '2. trigger_sandbox_event with type message.received, then advance_clock by 1s and list_deliveries for that endpoint: every attempt should be a 2xx.',
              `3. doctor_webhook_receiver with url ${url} and that secret: explain every failed case and what to change in my code.`,
              '4. Optionally set_webhook_chaos (duplicate, out_of_order) on the endpoint, trigger again, and check that my receiver deduplicates and orders statuses.',
            ].join('\n'),
          },
        },
      ],
    })),
  );
  server.registerPrompt(
    'walk_message_statuses',
    {
      title: 'Walk a message through its statuses',
      description: 'Send a message on the emulator and move its clock until it is read',
      argsSchema: { to: z.string().describe('recipient, e.g. +33612345678 (or a magic number)') },
    },
    calls.wrap(({ to }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Walk a message to ${to} through its statuses on the Parley emulator:`,
              '1. list_connections and list_templates to pick a connection and a template (hello_world needs no variables).',
              `2. send_message to ${to}; note its id and idempotency_key.`,
              '3. Repeat advance_clock 1s then get_message until the status is read (or failed), and tell me each status with its time.',
              '4. tail_activity with kind message to show the steps, and list_deliveries for the webhooks they produced.',
            ].join('\n'),
          },
        },
      ],
    })),
  );
}
