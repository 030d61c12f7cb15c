/** Request headers as a `Headers` object or a plain record (any case, as Node gives them). */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * The value of header `name` (lower case), repeated values joined with ", " as `Headers`
 * does, or undefined when absent.
 */
export function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  // Duck-typed: polyfilled or cross-realm `Headers` (node-fetch, jsdom) fail `instanceof`.
  if (typeof headers.get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Exclude<WebhookHeaders, Headers>;
  let value = record[name];
  if (value === undefined) {
    for (const key in record) if (key.toLowerCase() === name) value = record[key];
  }
  return typeof value === 'object' ? value.join(', ') : value;
}
