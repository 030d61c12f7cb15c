/** Request headers as a `Headers` object or a plain record (any case, as Node gives them). */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * The value of header `name` (lower case), repeated values joined with ", " as `Headers`
 * does; undefined when absent or empty; null when it is not text (neither a string nor an
 * array of strings), which each header's own check then refuses.
 */
export function readHeader(headers: WebhookHeaders, name: string): string | null | undefined {
  // Typed input is not trusted: JavaScript callers and proxies hand over anything at all.
  const record = Object(headers) as Record<string, unknown>;
  let value: unknown;
  // Duck-typed: polyfilled or cross-realm `Headers` (node-fetch, jsdom) fail `instanceof`.
  if (typeof record.get === 'function') value = (headers as Headers).get(name);
  else {
    value = record[name];
    if (value === undefined) for (const key in record) if (key.toLowerCase() === name) value = record[key];
  }
  // Stryker disable next-line ConditionalExpression: equivalent, the checks below give the same answer for a string
  if (typeof value === 'string' && value !== '') return value;
  if (Array.isArray(value) && value.every((each) => typeof each === 'string')) value = value.join(', ');
  return value == null || value === '' ? undefined : typeof value === 'string' ? value : null;
}
