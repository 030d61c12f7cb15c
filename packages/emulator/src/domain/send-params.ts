import {
  characterCount,
  isPhoneNumber,
  MAX_CLIENT_REFERENCE_LENGTH,
  MAX_TEXT_LENGTH,
  type SendMessageParams,
} from '@parley/sdk';
import { isUuid } from './ids';
import { invalid, isObject } from './input-checks';

/** The members a `POST /v1/messages` body may have; any other is 400 `unknown_field`. */
export const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  'connection_id',
  'to',
  'type',
  'template',
  'text',
  'client_reference',
]);
/** The members its `template` may have. */
export const KNOWN_TEMPLATE_FIELDS: ReadonlySet<string> = new Set(['name', 'language', 'variables']);

function requiredString(body: Record<string, unknown>, field: string, path = field): string {
  const value = body[field];
  if (value === undefined || value === null) invalid(path, 'required', `${path} is required.`);
  if (typeof value !== 'string') invalid(path, 'invalid_type', `${path} must be a string.`);
  return value;
}

/**
 * Checks the shape of a `POST /v1/messages` body, field by field, in the order they are
 * documented; the first problem is thrown as 400 `validation_error` with `details.field` and
 * `details.reason`. Checks that need the connection (template existence, variable count) are in
 * `checkTemplate`.
 */
export function parseSendParams(body: unknown): SendMessageParams {
  if (!isObject(body)) invalid('body', 'invalid_type', 'The request body must be a JSON object.');
  for (const field of Object.keys(body)) {
    if (!KNOWN_FIELDS.has(field)) invalid(field, 'unknown_field', `Unknown field ${field}.`);
  }
  const connectionId = requiredString(body, 'connection_id');
  if (!isUuid(connectionId)) invalid('connection_id', 'invalid_format', 'connection_id must be a UUID.');
  const to = requiredString(body, 'to');
  if (!isPhoneNumber(to)) {
    invalid('to', 'invalid_format', 'to must be an international number: "+" followed by 8 to 15 digits.');
  }
  const type = requiredString(body, 'type');
  const reference = parseClientReference(body.client_reference);
  const base = {
    connection_id: connectionId,
    to,
    ...(reference === undefined ? {} : { client_reference: reference }),
  };
  if (type === 'text') {
    if (body.template !== undefined)
      invalid('template', 'not_allowed', 'template is only for type "template".');
    const text = requiredString(body, 'text');
    const length = characterCount(text);
    if (length === 0) invalid('text', 'too_short', 'text must not be empty.');
    if (length > MAX_TEXT_LENGTH) {
      invalid('text', 'too_long', `text must be at most ${MAX_TEXT_LENGTH} characters.`);
    }
    return { ...base, type, text };
  }
  if (type === 'template') {
    if (body.text !== undefined) invalid('text', 'not_allowed', 'text is only for type "text".');
    return { ...base, type, template: parseTemplate(body.template) };
  }
  return invalid('type', 'invalid_value', 'type must be "template" or "text".');
}

function parseClientReference(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    invalid('client_reference', 'invalid_type', 'client_reference must be a string.');
  if (characterCount(value) > MAX_CLIENT_REFERENCE_LENGTH) {
    invalid(
      'client_reference',
      'too_long',
      `client_reference must be at most ${MAX_CLIENT_REFERENCE_LENGTH} characters.`,
    );
  }
  return value;
}

function parseTemplate(value: unknown): { name: string; language: string; variables: string[] } {
  if (value === undefined || value === null) invalid('template', 'required', 'template is required.');
  if (!isObject(value)) invalid('template', 'invalid_type', 'template must be an object.');
  for (const field of Object.keys(value)) {
    if (!KNOWN_TEMPLATE_FIELDS.has(field)) {
      invalid(`template.${field}`, 'unknown_field', `Unknown field template.${field}.`);
    }
  }
  const name = requiredString(value, 'name', 'template.name');
  const language = requiredString(value, 'language', 'template.language');
  const variables = value.variables ?? [];
  if (!Array.isArray(variables) || variables.some((entry) => typeof entry !== 'string')) {
    invalid('template.variables', 'invalid_type', 'template.variables must be an array of strings.');
  }
  return { name, language, variables: variables as string[] };
}

/** Checks a template send against the connection's templates (400 `validation_error`). */
export function checkTemplate<Available extends { name: string; language: string; variable_count: number }>(
  template: { name: string; language: string; variables?: readonly string[] | undefined },
  available: readonly Available[],
): Available {
  // One pass, no array made: every send runs this (issue 23); the lists are built only to refuse.
  let match: Available | undefined;
  for (const candidate of available) {
    if (candidate.name === template.name && candidate.language === template.language) {
      match = candidate;
      break;
    }
  }
  if (!match) {
    const named = available.filter((candidate) => candidate.name === template.name);
    if (named.length === 0) {
      invalid('template.name', 'not_found', `This connection has no template named ${template.name}.`);
    }
    const languages = named.map((candidate) => candidate.language).join(', ');
    invalid(
      'template.language',
      'not_found',
      `Template ${template.name} exists in ${languages}, not ${template.language}.`,
    );
  }
  const given = template.variables?.length ?? 0;
  if (given !== match.variable_count) {
    invalid(
      'template.variables',
      'wrong_count',
      `Template ${template.name} takes exactly ${match.variable_count} variables; got ${given}.`,
    );
  }
  return match;
}
