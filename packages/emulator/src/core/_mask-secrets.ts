// The start of a key (`prl_sandbox_`, `prl_live_`) or a signing secret (`whsec_`), `_` also
// percent-encoded as a URL carries it. No word boundary: whatever precedes it (a letter, `_`, a
// newline that JSON writes as `\n`) must not let a secret through.
const SECRET_START = /prl(?:_|%5[Ff])(?:sandbox|live)(?:_|%5[Ff])|whsec(?:_|%5[Ff])/g;
const BASE62_RUN = /[A-Za-z0-9]*/y;
/** A key and a secret both carry 32 base62 characters (DESIGN §2); a shorter run is not one. */
const SECRET_LENGTH = 32;
/** Of a key's 32 characters, the display prefix shows 4 (`prl_sandbox_AbCd…`). */
const KEY_SHOWN = 4;

/**
 * Masks API keys and signing secrets wherever they appear in a text: a key keeps only its
 * display prefix (`prl_sandbox_AbCd…`, what the console shows of a key anyway), a secret only
 * `whsec_…`. Activity items hold no secret by construction; this also covers what a caller typed
 * where a secret does not belong (a key in a URL path, a secret in a message text).
 */
export function maskSecrets(text: string): string {
  if (!text.includes('prl') && !text.includes('whsec')) return text;
  let masked = '';
  let shownFrom = 0;
  for (const start of text.matchAll(SECRET_START)) {
    const afterPrefix = start.index + start[0].length;
    BASE62_RUN.lastIndex = afterPrefix;
    const run = BASE62_RUN.exec(text)![0].length;
    if (run < SECRET_LENGTH) continue;
    // A later start inside this run (a key ending in `whsec` before a `_`) begins past its end:
    // every start holds a `_` or `%`, which ends a run.
    const hiddenFrom = start[0][0] === 'p' ? afterPrefix + KEY_SHOWN : afterPrefix;
    masked += `${text.slice(shownFrom, hiddenFrom)}…`;
    shownFrom = afterPrefix + run;
  }
  return shownFrom === 0 ? text : masked + text.slice(shownFrom);
}

/**
 * {@link maskSecrets} on every string of a JSON-like value, property names included. Returns the
 * value itself when nothing was masked, and copies only the objects on the way to a masked string:
 * the value may be a live record (a stored message) that must not change.
 */
export function maskSecretsIn<Value>(value: Value): Value {
  if (typeof value === 'string') return maskSecrets(value) as Value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const masked = maskSecretsIn(value[index]);
      if (masked !== value[index]) copy ??= value.slice();
      if (copy) copy[index] = masked;
    }
    return (copy ?? value) as Value;
  }
  const entries = Object.entries(value);
  let changed = false;
  for (const entry of entries) {
    const [name, field] = entry;
    const maskedName = maskSecrets(name);
    const maskedField = maskSecretsIn(field);
    if (maskedName === name && maskedField === field) continue;
    changed = true;
    entry[0] = maskedName;
    entry[1] = maskedField;
  }
  // fromEntries defines properties: a `__proto__` name stays a plain field.
  return changed ? (Object.fromEntries(entries) as Value) : value;
}
