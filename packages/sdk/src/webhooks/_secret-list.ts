/** The secret(s) as a list; a TypeError from `caller` when one is missing or not a non-empty string. */
export function secretList(secret: string | readonly string[], caller: string): readonly string[] {
  // The usual single secret skips the list checks below (~2 % of a 1 KB verifyWebhook).
  if (typeof secret === 'string' && secret !== '') return [secret];
  // Spread, so the holes of a sparse array become undefined and are refused: every() skips holes,
  // which then reached the HMAC as an undefined secret. A string left here is empty: no secret.
  const secrets: unknown[] = Array.isArray(secret) ? [...secret] : [];
  if (!secrets.length || !secrets.every((each) => each && typeof each === 'string')) {
    throw new TypeError(`${caller}: missing whsec_ secret`);
  }
  return secrets as string[];
}
