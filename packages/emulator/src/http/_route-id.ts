import { getRouterParam, type H3Event } from 'h3';

/**
 * The route's `:id` (h3's `getRouterParam`), decoded; `''` on a route without one. An escape that
 * does not decode stays as sent: ids are opaque strings, so it is just an unknown id (404), as
 * `allowMalformedURL` has the router treat it.
 */
export function routeId(event: H3Event): string {
  const raw = getRouterParam(event, 'id') ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
