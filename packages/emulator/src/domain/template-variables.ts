/**
 * Most characters a message's kept template variables may hold together: a send's body is at most
 * 100 KiB (DESIGN §2), so no send gives more; a bundle from outside is held to the same.
 */
export const MAX_TEMPLATE_VARIABLES_LENGTH = 100 * 1024;

/**
 * A template body with each `{{n}}` replaced by the n-th variable; a placeholder without one stays.
 * One pass, so a variable that itself reads `{{2}}` is shown as typed, not filled again.
 */
export function fillTemplate(body: string, variables: readonly string[] | undefined): string {
  if (variables === undefined || variables.length === 0) return body;
  return body.replace(
    /\{\{(\d+)\}\}/g,
    (placeholder, number: string) => variables[Number(number) - 1] ?? placeholder,
  );
}

/** Why a bundle's kept variables are refused (not a list of strings, or over the bound), or undefined. */
export function templateVariablesProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return ': expected an array of strings';
  let length = 0;
  for (const [index, entry] of value.entries()) {
    if (typeof entry !== 'string') return `[${index}]: expected a string`;
    length += entry.length;
    if (length > MAX_TEMPLATE_VARIABLES_LENGTH) {
      return `: expected at most ${MAX_TEMPLATE_VARIABLES_LENGTH} characters of variables`;
    }
  }
  return undefined;
}
