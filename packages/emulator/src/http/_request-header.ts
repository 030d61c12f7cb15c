import type { IncomingMessage } from 'node:http';

/**
 * A request header as `request.headers.get(name)` gives it (`name` lower-case). Served over
 * node:http, it is read from Node's raw header list: `headers.get` first builds Node's object of
 * every header, and for `GET /v1/status`, which reads only `Authorization`, that was ~9 % of the
 * emulator's CPU per request (issue 23). A repeated header is left to `headers.get`, which joins it.
 */
export function requestHeader(request: Request, name: string): string | null {
  const raw = (request as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req?.rawHeaders;
  if (raw === undefined) return request.headers.get(name);
  let value: string | null = null;
  for (let index = 0; index < raw.length; index += 2) {
    const key = raw[index]!;
    if (key.length !== name.length || key.toLowerCase() !== name) continue;
    if (value !== null) return request.headers.get(name);
    value = raw[index + 1]!;
  }
  return value;
}

/** The socket a request came on (served over node:http), or undefined in process. */
export function connectionOf(request: Request): object | undefined {
  return (
    (request as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req?.socket ?? undefined
  );
}
