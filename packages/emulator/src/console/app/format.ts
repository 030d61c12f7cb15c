/** An ISO time as the console shows it: `2026-10-14 09:30:00 UTC` (empty for none). */
export function when(iso: string | null | undefined): string {
  return iso ? iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC') : '';
}

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/**
 * Milliseconds of a typed duration: `90s`, `2m`, `1h30m`, `1.5h`, `2d`, or a bare number of
 * seconds. Undefined when the text is not one.
 */
export function parseDuration(text: string): number | undefined {
  const compact = text.trim().toLowerCase().replaceAll(' ', '');
  if (/^\d+(\.\d+)?$/.test(compact)) return Math.round(Number(compact) * 1_000);
  const parts = [...compact.matchAll(/(\d+(?:\.\d+)?)(ms|s|min|m|h|d)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== compact) return undefined;
  return Math.round(parts.reduce((total, part) => total + Number(part[1]) * UNIT_MS[part[2]!]!, 0));
}

/** A duration in words: `1 s`, `5 min`, `1 h 30 min`, `24 h`. */
export function durationText(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1_000, 's'],
  ];
  const parts: string[] = [];
  let rest = Math.round(ms / 1_000) * 1_000;
  for (const [size, name] of units) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)} ${name}`);
      rest %= size;
    }
  }
  return parts.join(' ');
}

/** The error text of any thrown value. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
