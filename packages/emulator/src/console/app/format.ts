import { isEmulatorControlError } from '../../control-client/control-client-errors';

/** An ISO time as the console shows it: `2026-10-14 09:30:00 UTC` (empty for none). */
export function when(iso: string | null | undefined): string {
  return iso ? iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC') : '';
}

/** The error text of any thrown value; a refusal of the control API as "message (code)". */
export function errorText(error: unknown): string {
  if (isEmulatorControlError(error)) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}
