import type { SandboxEventType } from './event';
import {
  characterCount,
  MAX_CLIENT_REFERENCE_LENGTH,
  MAX_TEXT_LENGTH,
  PHONE_NUMBER_PATTERN,
} from './input-rules';

/** What the value at one override path must be. */
export type SandboxEventOverrideRule =
  | { type: 'string'; min: number; max: number; nullable?: true }
  | { type: 'phone_number' }
  | { type: 'enum'; values: readonly string[] };

/**
 * `overrides` of `POST /v1/sandbox/events`: values by dotted path into the event envelope, e.g.
 * `{ "data.message.text": "Where is my order?" }`.
 */
export type SandboxEventOverrides = Record<string, unknown>;

const text = { type: 'string', min: 1, max: MAX_TEXT_LENGTH } as const;
const phone = { type: 'phone_number' } as const;
const connectionFields = {
  'data.connection.name': { type: 'string', min: 1, max: 200 },
  'data.connection.phone_number': phone,
  'data.connection.quality_rating': { type: 'enum', values: ['GREEN', 'YELLOW', 'RED'] },
} as const;

/**
 * The paths each synthetic event lets you set, with the rule of each value. Ids, types and
 * timestamps are not among them: the emulator makes those, so events stay unique and ordered.
 * Written once (STYLE item 7): the emulator validates `overrides` with it and `parley trigger
 * --set` checks before calling.
 */
export const SANDBOX_EVENT_OVERRIDES: Readonly<
  Record<SandboxEventType, Readonly<Record<string, SandboxEventOverrideRule>>>
> = {
  'message.received': { 'data.message.text': text, 'data.message.from': phone },
  'message.status_updated': {
    'data.message.status': { type: 'enum', values: ['queued', 'sent', 'delivered', 'read', 'failed'] },
    'data.message.to': phone,
    'data.message.client_reference': {
      type: 'string',
      min: 1,
      max: MAX_CLIENT_REFERENCE_LENGTH,
      nullable: true,
    },
    'data.message.template.name': { type: 'string', min: 1, max: 512 },
    'data.message.template.language': { type: 'string', min: 2, max: 15 },
  },
  'connection.connected': connectionFields,
  'connection.disconnected': connectionFields,
  'webhook.test': { 'data.message': text },
};

/** Why `overrides` were refused: `field` is the offending path (or `overrides` itself). */
export interface SandboxEventOverrideProblem {
  field: string;
  reason: 'invalid_type' | 'unknown_path' | 'invalid_value';
  message: string;
}

/**
 * The first problem of `overrides` for an event of `type`, or `null` when every path is one the
 * type lets you set and every value follows its rule.
 *
 * @example
 * sandboxEventOverrideProblem('message.received', { 'data.message.txt': 'hi' });
 * // → { field: 'data.message.txt', reason: 'unknown_path', message: 'data.message.txt cannot be set on message.received: …' }
 */
export function sandboxEventOverrideProblem(
  type: SandboxEventType,
  overrides: unknown,
): SandboxEventOverrideProblem | null {
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
    return {
      field: 'overrides',
      reason: 'invalid_type',
      message: 'overrides must be an object of values by dotted path, e.g. {"data.message.text":"Hi"}.',
    };
  }
  const rules = SANDBOX_EVENT_OVERRIDES[type];
  for (const [path, value] of Object.entries(overrides)) {
    // hasOwn: `__proto__` or `toString` must never find a rule through the prototype.
    const rule = Object.hasOwn(rules, path) ? rules[path] : undefined;
    if (!rule) {
      return {
        field: path,
        reason: 'unknown_path',
        message: `${path} cannot be set on ${type}: use ${Object.keys(rules).join(', ')}.`,
      };
    }
    // One check for the three kinds of rule (saves 33 B gzip in the whole SDK over one function each).
    let reason: SandboxEventOverrideProblem['reason'] = 'invalid_type';
    if (typeof value === 'string') {
      const length = characterCount(value);
      if (
        rule.type === 'enum'
          ? rule.values.includes(value)
          : rule.type === 'phone_number'
            ? PHONE_NUMBER_PATTERN.test(value)
            : length >= rule.min && length <= rule.max
      ) {
        continue;
      }
      reason = 'invalid_value';
    } else if (value === null && rule.type === 'string' && rule.nullable) {
      continue;
    }
    const expected =
      rule.type === 'enum'
        ? `one of ${rule.values.join(', ')}`
        : rule.type === 'phone_number'
          ? 'a phone number in international format (+ and 8 to 15 digits)'
          : `a string of ${rule.min} to ${rule.max} characters${rule.nullable ? ' or null' : ''}`;
    return { field: path, reason, message: `${path} must be ${expected}, got ${describe(value)}.` };
  }
  return null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 40 ? 'a longer string' : JSON.stringify(value);
  if (typeof value === 'object') return 'an object';
  return `the ${typeof value} ${String(value)}`;
}
