/**
 * Shows enough of an API key to recognise it and never the whole key:
 * `prl_sandbox_…abcd`, `prl_live_…wxyz`, or `…abcd` for other shapes.
 */
export function maskKey(key: string): string {
  const prefix = /^prl_(?:sandbox|live)_/.exec(key)?.[0] ?? '';
  const rest = key.slice(prefix.length);
  return rest.length >= 12 ? `${prefix}…${rest.slice(-4)}` : `${prefix}…`;
}
