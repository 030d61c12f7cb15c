import type { SandboxEventOverrides, SendMessageParams } from '@parley/sdk';
import { z } from 'zod';
import {
  clientReference,
  defined,
  id,
  listOutput,
  messageOutput,
  messageText,
  paging,
  phoneNumber,
  sandboxEventType,
} from './_schemas';
import { defineTool, type ToolSpec } from './_tool-spec';

const WAIT_STATUSES = ['queued', 'sent', 'delivered', 'read'] as const;
// A tool call is a turn of the agent's conversation: a wait longer than this should be a clock move.
const MAX_WAIT_SECONDS = 120;

const sendInput = z
  .strictObject({
    type: z.enum(['template', 'text']).describe('a template (outside the 24 h window) or a text message'),
    connection_id: id.describe('the connection to send from (list_connections)'),
    to: phoneNumber.describe('recipient in international format, e.g. +33612345678'),
    template: z
      .strictObject({
        name: z.string().min(1).max(512),
        language: z.string().min(1).max(32),
        variables: z.array(z.string().max(1024)).max(100).optional(),
      })
      .optional()
      .describe('with type "template": name, language and the variables in placeholder order'),
    text: messageText.optional().describe('with type "text": the message'),
    client_reference: clientReference.optional().describe('your own reference, echoed on the message'),
    idempotency_key: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe('Idempotency-Key to send with (default: a new UUID, returned); repeat it to retry safely'),
  })
  .superRefine((body, issues) => {
    if (body.type === 'text' && body.text === undefined) {
      issues.addIssue({ code: 'custom', path: ['text'], message: 'is required when type is "text"' });
    }
    if (body.type === 'template' && body.template === undefined) {
      issues.addIssue({ code: 'custom', path: ['template'], message: 'is required when type is "template"' });
    }
    const other = body.type === 'text' ? 'template' : 'text';
    if (body[other] !== undefined) {
      issues.addIssue({
        code: 'custom',
        path: [other],
        message: `is not allowed when type is "${body.type}"`,
      });
    }
  });

/** The `/v1/messages` body of the tool's arguments, typed as the SDK's. */
function sendBody(args: z.output<typeof sendInput>): SendMessageParams {
  const base = {
    connection_id: args.connection_id,
    to: args.to,
    ...(args.client_reference === undefined ? {} : { client_reference: args.client_reference }),
  };
  return args.type === 'text'
    ? { ...base, type: 'text', text: args.text ?? '' }
    : { ...base, type: 'template', template: defined(args.template ?? { name: '', language: '' }) };
}

/** The tools of the API itself: what any Parley key can do, against the emulator or the real API. */
export const API_TOOLS: readonly ToolSpec[] = [
  defineTool({
    name: 'get_status',
    title: 'Who am I',
    description:
      "The key's application, workspace, environment (sandbox or live) and scopes (GET /v1/status).",
    group: 'api',
    input: z.strictObject({}),
    output: z.looseObject({
      application_id: z.string(),
      workspace_id: z.string(),
      environment: z.string(),
      scopes: z.array(z.string()),
    }),
    readOnly: true,
    run: async (_args, { client }) => ({ ...(await client.status.get()) }),
  }),
  defineTool({
    name: 'send_message',
    title: 'Send a message',
    description:
      'POST /v1/messages: a template or a text message. Sent with an Idempotency-Key (yours, or a new one) that is returned with the message: repeat the call with it to retry without sending twice.',
    group: 'api',
    input: sendInput,
    output: z.looseObject({ message: messageOutput, idempotency_key: z.string() }),
    run: async (args, { client }) => {
      const idempotencyKey = args.idempotency_key ?? crypto.randomUUID();
      const message = await client.messages.send(sendBody(args), { idempotencyKey });
      return { message, idempotency_key: idempotencyKey };
    },
  }),
  defineTool({
    name: 'get_message',
    title: 'Get a message',
    description: 'GET /v1/messages/{id}: the message and its current status.',
    group: 'api',
    input: z.strictObject({ id: id.describe('message id') }),
    output: messageOutput,
    readOnly: true,
    run: async ({ id }, { client }) => ({ ...(await client.messages.get(id)) }),
  }),
  defineTool({
    name: 'wait_for_message',
    title: 'Wait for a status',
    description: `Polls a message until it reaches a status (or a later one), at most timeout_seconds (${MAX_WAIT_SECONDS} at most). On the emulator with a frozen clock, move it with advance_clock instead of waiting.`,
    group: 'api',
    input: z.strictObject({
      id: id.describe('message id'),
      until: z.enum(WAIT_STATUSES).describe('the status to wait for'),
      timeout_seconds: z
        .number()
        .positive()
        .max(MAX_WAIT_SECONDS)
        .optional()
        .describe(`give up after this many seconds (default 30, at most ${MAX_WAIT_SECONDS})`),
    }),
    output: messageOutput,
    readOnly: true,
    run: async ({ id, until, timeout_seconds }, { client, signal }) => ({
      ...(await client.messages.waitFor(id, { until, timeout: (timeout_seconds ?? 30) * 1000, signal })),
    }),
  }),
  defineTool({
    name: 'list_connections',
    title: 'List connections',
    description: 'GET /v1/connections: the business numbers the application sends from (one page).',
    group: 'api',
    input: z.strictObject(paging),
    output: listOutput,
    readOnly: true,
    run: async (args, { client }) => pageOf(await client.connections.list(defined(args))),
  }),
  defineTool({
    name: 'list_templates',
    title: 'List templates',
    description: 'GET /v1/connections/{id}/templates: the message templates of a connection (one page).',
    group: 'api',
    input: z.strictObject({ connection_id: id.describe('connection id (list_connections)'), ...paging }),
    output: listOutput,
    readOnly: true,
    run: async ({ connection_id, ...query }, { client }) =>
      pageOf(await client.connections.listTemplates(connection_id, defined(query))),
  }),
  defineTool({
    name: 'trigger_sandbox_event',
    title: 'Trigger a sandbox event',
    description:
      'POST /v1/sandbox/events (sandbox keys): queues a synthetic webhook event to the application\'s endpoints, with values set by dotted path, e.g. { "data.message.text": "Where is my order?" }.',
    group: 'api',
    input: z.strictObject({
      type: sandboxEventType.describe('the event type'),
      overrides: z
        .record(z.string().max(128), z.unknown())
        .optional()
        .describe('values by dotted path into the event (see the SDK docs for the paths of each type)'),
    }),
    output: z.looseObject({ id: z.string(), type: z.string(), deliveries_queued: z.number() }),
    run: async ({ type, overrides }, { client }) => ({
      ...(await client.sandbox.events.create({
        type,
        ...(overrides ? { overrides: overrides as SandboxEventOverrides } : {}),
      })),
    }),
  }),
];

/** One page as the list envelope (the SDK's page also iterates; only its data is the answer). */
function pageOf(page: { data: unknown[]; has_more: boolean; next_cursor: string | null }) {
  return { object: 'list', data: page.data, has_more: page.has_more, next_cursor: page.next_cursor };
}
