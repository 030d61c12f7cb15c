import type { EmulatorCore } from '../core/emulator-core';
import { authenticate, type Caller } from '../core/keys';
import { nodeRequest, requestHeader } from './_request-header';

/** Per keep-alive connection: the Authorization header it sent last and the caller it named. */
const lastCallers = new WeakMap<object, { authorization: string; caller: Caller }>();

/**
 * The caller of a /v1 request ({@link authenticate}: 401 `missing_api_key` / `invalid_api_key`).
 * A client sends the same key on every request of a keep-alive connection, and hashing it again
 * each time was ~4 % of the emulator's CPU per `GET /v1/status` (issue 23), so a connection keeps
 * the caller its last header named. It holds only what that connection's client sent: comparing
 * against it tells a client nothing about another's key. It counts only while its key and
 * application are still the state's records: a revoked key or a reset state misses.
 */
export function callerOf(core: EmulatorCore, request: Request): Caller {
  const authorization = requestHeader(request, 'authorization');
  const socket = nodeRequest(request)?.socket;
  const last = socket && lastCallers.get(socket);
  if (
    last &&
    last.authorization === authorization &&
    core.state.keys[last.caller.key.id] === last.caller.key &&
    core.state.applications[last.caller.application.id] === last.caller.application
  ) {
    return last.caller;
  }
  const caller = authenticate(core, authorization);
  if (socket && authorization !== null) lastCallers.set(socket, { authorization, caller });
  return caller;
}
