/** Request headers as a `Headers` object or a plain record (any case, as Node gives them). */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * The value of header `name` (lower case), repeated values joined with ", " as `Headers`
 * does, or undefined when absent.
 */
export function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  let value = headers[name];
  if (value === undefined) {
    for (const key in headers) if (key.toLowerCase() === name) value = headers[key];
  }
  return typeof value === 'object' ? value.join(', ') : value;
}
