import { usageError } from '../../exit-error';

/**
 * Parses captured headers: a JSON object (`{"parley-signature": "v1=…"}`, values may be
 * arrays as Node gives them), or raw `Name: value` lines as `curl -v` or a proxy log shows them
 * (a leading request line and `> ` prefixes are skipped).
 */
export function parseHeaderFile(text: string): Record<string, string | string[]> {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw usageError('--headers looks like JSON but does not parse: fix it or use `Name: value` lines');
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof value === 'string' || typeof value === 'number') headers[name] = String(value);
      else if (Array.isArray(value)) headers[name] = value.map(String);
    }
    return headers;
  }
  const headers: Record<string, string | string[]> = {};
  for (const rawLine of trimmed.split(/\r?\n/)) {
    const line = rawLine.replace(/^[<>]\s?/, '');
    const colon = line.indexOf(':');
    if (colon <= 0 || /\s/.test(line.slice(0, colon))) continue;
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    const previous = headers[name];
    headers[name] =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return headers;
}
