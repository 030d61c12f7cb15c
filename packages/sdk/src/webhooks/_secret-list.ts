/** The secret(s) as a list; a TypeError from `caller` when one is missing or not a non-empty string. */
export function secretList(secret: string | readonly string[], caller: string): readonly string[] {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (!secrets?.length || !secrets.every((each) => each && typeof each === 'string')) {
    throw new TypeError(`${caller}: missing whsec_ secret`);
  }
  return secrets;
}
