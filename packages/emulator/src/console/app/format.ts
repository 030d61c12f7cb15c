/** An ISO time as the console shows it: `2026-10-14 09:30:00 UTC` (empty for none). */
export function when(iso: string | null | undefined): string {
  return iso ? iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC') : '';
}

/** The error text of any thrown value. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
