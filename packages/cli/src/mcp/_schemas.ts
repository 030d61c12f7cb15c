import {
  characterCount,
  MAX_CLIENT_REFERENCE_LENGTH,
  MAX_TEXT_LENGTH,
  PHONE_NUMBER_PATTERN,
  SANDBOX_EVENT_TYPES,
  WEBHOOK_EVENT_TYPES,
} from '@parley/sdk';
import { z } from 'zod';

// Shapes shared by several tools. Inputs are as strict as the API's rules, so a bad argument is
// answered by the schema before any call; outputs are loose objects (an emulator newer than this
// CLI may add fields, and a client checks structured content against the output schema).

/** A phone number in international format, as the API requires it. */
export const phoneNumber = z
  .string()
  .regex(PHONE_NUMBER_PATTERN, 'must be in international format with a leading +, e.g. +33612345678');

/** A text message body: 1 to 4,096 characters (code points, as the API counts). */
export const messageText = z
  .string()
  .refine((text) => characterCount(text) >= 1 && characterCount(text) <= MAX_TEXT_LENGTH, {
    message: `must be 1 to ${MAX_TEXT_LENGTH} characters`,
  });

/** `client_reference`: at most 128 characters. */
export const clientReference = z.string().max(MAX_CLIENT_REFERENCE_LENGTH);

/** Paging of every list: `limit` 1–100 and the `next_cursor` of the page before. */
export const paging = {
  limit: z.number().int().min(1).max(100).optional().describe('items per page, 1 to 100 (default 20)'),
  cursor: z.string().min(1).max(512).optional().describe('next_cursor of the page before'),
};

/** A webhook event type. */
export const webhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
/** An event type `trigger_sandbox_event` can queue. */
export const sandboxEventType = z.enum(SANDBOX_EVENT_TYPES);

/** An id of the API or the control API. */
export const id = z.string().min(1).max(128);

/** A message as the API shows it (spec 2.1). */
export const messageOutput = z.looseObject({
  id: z.string(),
  object: z.literal('message'),
  status: z.string(),
  connection_id: z.string(),
  type: z.string(),
});

/** A list envelope of loose items. */
export const listOutput = z.looseObject({
  data: z.array(z.looseObject({})),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});

/** A parsed value without its `undefined` properties, at every depth (optional means absent). */
export type Defined<Value> = Value extends readonly unknown[]
  ? Value
  : Value extends object
    ? { [Key in keyof Value]: Defined<Exclude<Value[Key], undefined>> }
    : Value;

/**
 * The arguments as the SDK's and the control client's types want them: a schema's optional field
 * comes out as `undefined` when absent, their types leave it out.
 */
export function defined<Value>(value: Value): Defined<Value> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value as Defined<Value>;
  const kept = Object.entries(value).filter(([, field]) => field !== undefined);
  return Object.fromEntries(kept.map(([name, field]) => [name, defined(field)])) as Defined<Value>;
}
