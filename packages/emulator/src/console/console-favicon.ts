/**
 * The console's icon, a speech bubble in its accent colour: served at `/favicon.ico`, where a
 * browser asks for it on every load, so that request is no 404 (an SVG: 200 bytes, no build step).
 */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path fill="#2f5bd3" d="M2 1h12a1 1 0 0 1 1 1v8a1 1 0 0 1-1 1H8l-4 3.5V11H2a1 1 0 0 1-1-1V2a1 1 0 0 1 1-1z"/></svg>';

/** The answer to `GET /favicon.ico`. */
export function faviconResponse(): Response {
  return new Response(FAVICON_SVG, {
    headers: {
      'content-type': 'image/svg+xml',
      'cache-control': 'public, max-age=86400',
      'x-content-type-options': 'nosniff',
    },
  });
}
