import type { EmulatorFault } from '../../client/control-api';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { usageError } from '../../exit-error';
import { openControl } from '../_open-control';
import { defineCommand } from '../command-module';
import { describeFault, wholeFlag } from './_faults';
import { idOption } from './_id-option';

/** `parley emulator faults add`: which /v1 requests, and exactly one answer. */
export interface FaultsAddOptions extends ClientOptions {
  method?: string;
  /** A /v1 path; `*` stands for one segment (`/v1/messages/*`). */
  path?: string;
  /** Only requests with this API key (its id, as `GET /_emulator/usage` lists it). */
  keyId?: string;
  /** Only requests whose API key starts with this, e.g. its display prefix `prl_sandbox_AbCd`. */
  keyPrefix?: string;
  times?: string | number;
  status?: string | number;
  code?: string;
  retryAfter?: string | number;
  hang?: boolean;
  drop?: boolean;
  delayMs?: string | number;
}

/**
 * Injects a fault (`POST /_emulator/faults`): the next `times` matching /v1 requests (method, path,
 * and the key: `--key-id` or `--key-prefix`) get an error answer (`--status --code [--retry-after]`),
 * a hang, a dropped connection, or a late real answer. Every flag is checked before the call (exit 2).
 */
export async function addFault(options: FaultsAddOptions, context: CommandContext): Promise<EmulatorFault> {
  const answers = [
    options.status !== undefined || options.code !== undefined,
    options.hang === true,
    options.drop === true,
    options.delayMs !== undefined,
  ].filter(Boolean).length;
  if (answers !== 1) {
    throw usageError(
      `give exactly one answer: --status 503 --code internal_error, --hang, --drop or --delay-ms 2000${answers === 0 ? '' : ' (not several)'}`,
    );
  }
  const status = wholeFlag('--status', options.status, 400, 599);
  if ((status === undefined) !== (options.code === undefined)) {
    throw usageError('--status and --code go together, e.g. --status 503 --code internal_error');
  }
  if (options.code !== undefined && !/^[a-z][a-z0-9_]{0,63}$/.test(options.code)) {
    throw usageError(
      `--code takes an error code such as internal_error or rate_limited, not "${options.code}"`,
    );
  }
  const retryAfter = wholeFlag('--retry-after', options.retryAfter, 0, 86_400);
  if (retryAfter !== undefined && status === undefined)
    throw usageError('--retry-after goes with --status and --code');
  if (options.method !== undefined && !/^[A-Za-z]{1,16}$/.test(options.method)) {
    throw usageError(`--method takes an HTTP method such as POST, not "${options.method}"`);
  }
  if (options.path !== undefined && !/^\/v1(\/[^/?#\s]+)*\/?$/.test(options.path)) {
    throw usageError(
      `--path takes a /v1 path such as /v1/messages ("*" for one segment), not "${options.path}"`,
    );
  }
  if (options.keyId !== undefined && options.keyPrefix !== undefined) {
    throw usageError('give --key-id or --key-prefix, not both');
  }
  const keyId = idOption(options.keyId, '--key-id', 'GET /_emulator/usage');
  if (options.keyPrefix !== undefined && !/^prl_[A-Za-z0-9_]{1,60}$/.test(options.keyPrefix)) {
    throw usageError(
      `--key-prefix takes the start of an API key such as prl_sandbox_AbCd, not "${options.keyPrefix}"`,
    );
  }
  const times = wholeFlag('--times', options.times, 1, 10_000);
  const delayMs = wholeFlag('--delay-ms', options.delayMs, 1, 600_000);
  const fault =
    status !== undefined
      ? { status, code: options.code, ...(retryAfter === undefined ? {} : { retry_after: retryAfter }) }
      : options.hang
        ? { hang: true }
        : options.drop
          ? { drop: true }
          : { delay_ms: delayMs };
  const control = await openControl(options, context);
  return control.createFault({
    ...(options.method === undefined ? {} : { method: options.method.toUpperCase() }),
    ...(options.path === undefined ? {} : { path: options.path }),
    ...(keyId === undefined ? {} : { key_id: keyId }),
    ...(options.keyPrefix === undefined ? {} : { key_prefix: options.keyPrefix }),
    ...(times === undefined ? {} : { times }),
    fault,
  });
}

export default defineCommand({
  run: addFault,
  render: (fault) => `Fault added: ${describeFault(fault)}`,
});
