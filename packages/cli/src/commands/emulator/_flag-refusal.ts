import { EXIT, ExitError, isExitError } from '../../exit-error';

/**
 * The value of a number flag for a control call's body: the number it spells (`"5"` → 5), else the
 * text as given, which the emulator then refuses naming the field. Never NaN or Infinity, which
 * JSON would send as null (read as "not given").
 */
export function numberValue(value: string | number | undefined): string | number | undefined {
  if (typeof value !== 'string') return value;
  const number = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(value) ? Number(value) : Number.NaN;
  return Number.isFinite(number) ? number : value;
}

/**
 * The emulator's refusal of a body the command built from its flags (400 `validation_error`, whose
 * `details.field` names the body's field) as a usage error (exit 2) that names the flag instead:
 * `flagOf` maps the field to it. The emulator's message is kept, the field it starts with written
 * as the flag. Any other error is returned unchanged.
 */
export function flagRefusal(error: unknown, flagOf: (field: string) => string | undefined): unknown {
  if (!isExitError(error) || error.body.error.code !== 'validation_error') return error;
  const field = error.body.error.details?.field;
  const flag = typeof field === 'string' ? flagOf(field) : undefined;
  if (flag === undefined || typeof field !== 'string') return error;
  const refusal = error.body.error.message;
  // `fault.status must be …` starts with the field; `delay_ms must be …` with its last part.
  const named = [field, field.slice(field.lastIndexOf('.') + 1)].find((name) =>
    refusal.startsWith(`${name} `),
  );
  const message = named === undefined ? `${flag}: ${refusal}` : `${flag}${refusal.slice(named.length)}`;
  return new ExitError(EXIT.usage, message, {
    error: { code: 'usage_error', message, request_id: null, details: { field, flag } },
  });
}
