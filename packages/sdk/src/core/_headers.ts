import { ConfigurationError } from '../errors/configuration-error';
import type { RequestHeaders } from './request-options';

/**
 * Applies `layers` over `headers` in order: a string sets a header, `null` removes it,
 * `undefined` leaves it. Removing Authorization (the API key) or Idempotency-Key (what makes a
 * send safe to retry) is refused: a stray `null` must not send an unauthenticated or unsafe call.
 */
export function applyHeaders(headers: Headers, ...layers: (RequestHeaders | undefined)[]): Headers {
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer ?? {})) {
      if (value === null && /^(authorization|idempotency-key)$/i.test(name)) {
        throw new ConfigurationError(`The ${name} header cannot be removed`);
      }
      if (value === null) headers.delete(name);
      else if (value !== undefined) headers.set(name, value);
    }
  }
  return headers;
}
