import type { ChaosInput, CreateFaultInput } from '@parley/emulator/control';
import { CHAOS_KINDS, DURATION_EXAMPLES, readDuration } from '@parley/emulator/rules';
import { WEBHOOK_EVENT_TYPES } from '@parley/sdk';
import { z } from 'zod';
import { recentActivity } from './_activity';
import { defined, id, listOutput, paging, webhookEventType } from './_schemas';
import { defineTool, type ToolSpec } from './_tool-spec';

/** A duration in the CLI's grammar, checked by the schema: the error names the field. */
const duration = z
  .string()
  .max(64)
  .superRefine((text, issues) => {
    const reading = readDuration(text);
    if (!reading.ok) issues.addIssue({ code: 'custom', message: reading.message });
  })
  .describe(`whole numbers with units, largest first: ${DURATION_EXAMPLES}`);

const chaosSetting = z
  .union([
    z.strictObject({ next: z.number().int().min(1).max(1000), delay_ms: z.number().int().min(1).optional() }),
    z.strictObject({ rate: z.number().min(0).max(1), delay_ms: z.number().int().min(1).optional() }),
  ])
  .optional();

const chaosInput = z.strictObject({
  endpoint_id: id.describe('the webhook endpoint'),
  ...Object.fromEntries(CHAOS_KINDS.map((kind) => [kind, chaosSetting])),
  seed: z.number().int().optional().describe('seed of the rate draws, to repeat a run'),
  off: z.boolean().optional().describe('true: chaos off (deliveries already planned keep theirs)'),
}) as z.ZodObject<
  { endpoint_id: z.ZodString; seed: z.ZodOptional<z.ZodNumber>; off: z.ZodOptional<z.ZodBoolean> } & Record<
    (typeof CHAOS_KINDS)[number],
    typeof chaosSetting
  >
>;

const faultAnswer = z.union([
  z.strictObject({
    status: z.number().int().min(400).max(599),
    code: z.string().min(1).max(64),
    retry_after: z.number().int().min(0).optional(),
  }),
  z.strictObject({ hang: z.literal(true) }),
  z.strictObject({ drop: z.literal(true) }),
  z.strictObject({ delay_ms: z.number().int().min(1).max(600_000) }),
]);

const faultInput = z.strictObject({
  fault: faultAnswer.describe(
    'the answer: {status, code, retry_after?} an error; {hang:true} none; {drop:true} a reset connection; {delay_ms} the real one, late',
  ),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional().describe('only this method'),
  path: z.string().startsWith('/v1').max(512).optional().describe('only this /v1 path, * for one segment'),
  key_id: id.optional().describe('only requests with this key'),
  key_prefix: z.string().max(64).optional().describe('only keys starting so, e.g. prl_sandbox_AbCd'),
  times: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe('how many matching requests get it (default 1)'),
});
// The tool's arguments are the control API's body, as its typed client declares it.
const _faultInputIsTheControlBody = (args: z.output<typeof faultInput>): CreateFaultInput => defined(args);

/** The tools that drive the emulator through its control API (offered when the target is one). */
export const EMULATOR_TOOLS: readonly ToolSpec[] = [
  defineTool({
    name: 'advance_clock',
    title: 'Advance the clock',
    description:
      "Moves the emulator's clock (or one workspace's own clock): every job that falls due runs, in time order (status steps, webhook deliveries and retries).",
    group: 'emulator',
    input: z.strictObject({
      duration,
      workspace_id: id.optional().describe('move the own clock of this workspace only'),
    }),
    output: z.looseObject({ now: z.string(), advanced_ms: z.number() }),
    run: async ({ duration, workspace_id }, { control }) => {
      const reading = readDuration(duration);
      const ms = reading.ok ? reading.ms : 0;
      const { now } = workspace_id
        ? await control.advanceWorkspaceClock(workspace_id, ms)
        : await control.advanceClock(ms);
      return { now, advanced_ms: ms, ...(workspace_id ? { workspace_id } : {}) };
    },
  }),
  defineTool({
    name: 'reset',
    title: 'Reset the emulator',
    description: "Back to the seed state (or clear one workspace's messages, deliveries, events and faults).",
    group: 'emulator',
    input: z.strictObject({ workspace_id: id.optional().describe('clear this workspace only') }),
    output: z.looseObject({ ok: z.literal(true) }),
    run: async ({ workspace_id }, { control }) => ({
      ...(workspace_id ? await control.resetWorkspace(workspace_id) : await control.reset()),
    }),
  }),
  defineTool({
    name: 'list_deliveries',
    title: 'List webhook deliveries',
    description:
      'Webhook deliveries, newest first, with every attempt (status code, error, duration) and the next one.',
    group: 'emulator',
    input: z.strictObject({
      endpoint_id: id.optional().describe('only this endpoint'),
      application_id: id.optional().describe('only this application'),
      ...paging,
    }),
    output: listOutput,
    readOnly: true,
    run: async ({ endpoint_id, application_id, limit, cursor }, { control }) => ({
      ...(await control.listDeliveries({
        ...(endpoint_id ? { endpointId: endpoint_id } : {}),
        ...(application_id ? { applicationId: application_id } : {}),
        ...(limit ? { limit } : {}),
        ...(cursor ? { cursor } : {}),
      })),
    }),
  }),
  defineTool({
    name: 'replay_delivery',
    title: 'Replay a delivery',
    description: 'Delivers the same event (same id) to the same endpoint again.',
    group: 'emulator',
    input: z.strictObject({ id: id.describe('delivery id (list_deliveries)') }),
    output: z.looseObject({ id: z.string(), status: z.string() }),
    run: async ({ id }, { control }) => ({ ...(await control.replayDelivery(id)) }),
  }),
  defineTool({
    name: 'create_endpoint',
    title: 'Create a webhook endpoint',
    description:
      "Registers a webhook endpoint (a receiver's URL; loopback is accepted) for the key's application, or another. Its answer is the only place the signing secret is shown: keep it.",
    group: 'emulator',
    input: z.strictObject({
      url: z
        .url({ protocol: /^https?$/ })
        .max(2048)
        .describe('where deliveries go, e.g. http://127.0.0.1:3000/webhooks'),
      events: z.array(webhookEventType).min(1).optional().describe('event types (default: all)'),
      application_id: id.optional().describe("default: the key's application"),
    }),
    output: z.looseObject({ id: z.string(), url: z.string(), secret: z.string() }),
    createsSecret: true,
    run: async ({ url, events, application_id }, { control, client }) => {
      const applicationId = application_id ?? (await client.status.get()).application_id;
      return {
        ...(await control.createEndpoint(applicationId, { url, events: events ?? [...WEBHOOK_EVENT_TYPES] })),
      };
    },
  }),
  defineTool({
    name: 'add_fault',
    title: 'Inject a fault',
    description:
      'The next matching /v1 requests get this answer instead of the real one: an error (e.g. 503 service_unavailable), a hang, a dropped connection or a delay.',
    group: 'emulator',
    input: faultInput,
    output: z.looseObject({ id: z.string(), remaining: z.number() }),
    run: async (args, { control }) => ({ ...(await control.createFault(_faultInputIsTheControlBody(args))) }),
  }),
  defineTool({
    name: 'clear_faults',
    title: 'Clear faults',
    description: 'Removes one injected fault, or every one.',
    group: 'emulator',
    input: z.strictObject({ id: id.optional().describe('the fault to remove (default: all)') }),
    output: z.looseObject({ ok: z.literal(true) }),
    run: async ({ id }, { control }) => {
      await (id ? control.deleteFault(id) : control.clearFaults());
      return { ok: true, ...(id ? { removed: id } : {}) };
    },
  }),
  defineTool({
    name: 'set_webhook_chaos',
    title: 'Set webhook chaos',
    description: `An endpoint's webhook chaos: for each kind (${CHAOS_KINDS.join(', ')}) {next: N} the next N deliveries or {rate: R} that share; replaces the settings before. off: true turns it off.`,
    group: 'emulator',
    input: chaosInput,
    output: z.looseObject({ endpoint_id: z.string(), applied: z.looseObject({}) }),
    run: async ({ endpoint_id, off, ...settings }, { control }) => {
      if (off) {
        await control.clearChaos(endpoint_id);
        return { ...(await control.getChaos(endpoint_id)) };
      }
      const body = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
      return { ...(await control.setChaos(endpoint_id, body as ChaosInput)) };
    },
  }),
  defineTool({
    name: 'list_magic_numbers',
    title: 'Magic numbers',
    description: 'Sandbox recipients with a fixed outcome: stays sent, read, failed, 409, 429…',
    group: 'emulator',
    input: z.strictObject({}),
    output: z.looseObject({ data: z.array(z.looseObject({ number: z.string(), behaviour: z.string() })) }),
    readOnly: true,
    run: async (_args, { control }) => ({ data: (await control.listMagicNumbers({ limit: 100 })).data }),
  }),
  defineTool({
    name: 'tail_activity',
    title: 'Recent activity',
    description:
      "The emulator's last items, oldest first: /v1 requests (with an injected fault's id), control changes, events, message statuses, delivery attempts, clock moves. Keys and secrets are masked.",
    group: 'emulator',
    input: z.strictObject({
      limit: z.number().int().min(1).max(100).optional().describe('how many items (default 20)'),
      kind: z
        .string()
        .regex(/^[a-z_.]+$/)
        .max(64)
        .optional()
        .describe('request, control, event, message, delivery, clock, reset, or an event type'),
      status: z
        .string()
        .regex(/^([1-5]xx|[1-5]\d\d|[a-z_]+)$/)
        .optional()
        .describe('an HTTP status (503), a class (5xx) or a status word (delivered)'),
      path: z.string().startsWith('/').max(512).optional().describe('only requests at this path or under it'),
      application_id: id.optional().describe('only this application'),
    }),
    output: z.looseObject({ data: z.array(z.looseObject({ seq: z.number(), kind: z.string() })) }),
    readOnly: true,
    run: async ({ limit, ...filters }, { control }) => ({
      data: await recentActivity(control, { limit: limit ?? 20, ...filters }),
    }),
  }),
  defineTool({
    name: 'create_workspace',
    title: 'Create a workspace',
    description:
      'An isolated tenant; with clock "frozen" or "real" it gets a clock of its own, moved by advance_clock with its workspace_id alone.',
    group: 'emulator',
    input: z.strictObject({
      name: z.string().min(1).max(128),
      clock: z.enum(['real', 'frozen']).optional().describe('a clock of its own (default: the global one)'),
      now: z.iso.datetime().optional().describe("its clock's start, ISO 8601 (with clock)"),
    }),
    output: z.looseObject({ id: z.string(), name: z.string(), clock: z.string() }),
    run: async (input, { control }) => ({ ...(await control.createWorkspace(defined(input))) }),
  }),
];
