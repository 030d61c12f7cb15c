import { bearerToken, hashKey } from '../domain/api-keys';

/** A key as a call presents it: the token of its `Authorization` header and the token's hash. */
export interface PresentedKey {
  readonly token: string;
  readonly hash: string;
}

/**
 * Each connection's last `Authorization` header and what it presented. A client sends the same
 * header on every call of a keep-alive connection: parsing and hashing it again was ~2 % of the
 * CPU of a `POST /v1/messages` (issue 23). Keyed by the socket in a WeakMap, so the header is held
 * only as long as the connection that sent it, as Node's own request objects hold it; never
 * stored, logged or shown.
 */
const lastOfConnection = new WeakMap<object, { authorization: string; presented: PresentedKey }>();

/**
 * The key `authorization` presents (`Bearer <key>`), or undefined when it presents none. With
 * `connection` (the request's socket), the answer for the same header on the same connection is
 * reused.
 */
export function presentedKey(authorization: string | null, connection?: object): PresentedKey | undefined {
  const last = connection === undefined ? undefined : lastOfConnection.get(connection);
  if (last !== undefined && last.authorization === authorization) return last.presented;
  const token = bearerToken(authorization);
  if (token === undefined) return undefined;
  const presented = { token, hash: hashKey(token) };
  if (connection !== undefined)
    lastOfConnection.set(connection, { authorization: authorization!, presented });
  return presented;
}
