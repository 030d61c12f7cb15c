import type { FaultView } from '@parley/emulator/control';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { openControl } from '../_open-control';
import { defineCommand } from '../command-module';
import { describeFault } from './_faults';
import { flagRefusal, numberValue } from './_flag-refusal';

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

/** The flag that fills each field of the `POST /_emulator/faults` body, to name the one refused. */
const FLAG_OF_FIELD: ReadonlyMap<string, string> = new Map([
  ['method', '--method'],
  ['path', '--path'],
  ['key_id', '--key-id'],
  ['key_prefix', '--key-prefix'],
  ['times', '--times'],
  ['fault', 'the answer (--status with --code, --hang, --drop or --delay-ms)'],
  ['fault.status', '--status'],
  ['fault.code', '--code'],
  ['fault.retry_after', '--retry-after'],
  ['fault.hang', '--hang'],
  ['fault.drop', '--drop'],
  ['fault.delay_ms', '--delay-ms'],
]);

/**
 * Injects a fault (`POST /_emulator/faults`): the next `times` matching /v1 requests (method, path,
 * and the key: `--key-id` or `--key-prefix`) get an error answer (`--status --code [--retry-after]`),
 * a hang, a dropped connection, or a late real answer. The flags go into the body as given (a
 * number flag as a number); the emulator checks them, and a flag it refuses is exit 2 naming it.
 */
export async function addFault(options: FaultsAddOptions, context: CommandContext): Promise<FaultView> {
  const given = <Value>(name: string, value: Value | undefined) =>
    value === undefined ? {} : { [name]: value };
  const fault = {
    ...given('status', numberValue(options.status)),
    ...given('code', options.code),
    ...given('retry_after', numberValue(options.retryAfter)),
    ...(options.hang === true ? { hang: true } : {}),
    ...(options.drop === true ? { drop: true } : {}),
    ...given('delay_ms', numberValue(options.delayMs)),
  };
  const control = await openControl(options, context);
  return control
    .createFault({
      ...given('method', options.method),
      ...given('path', options.path),
      ...given('key_id', options.keyId),
      ...given('key_prefix', options.keyPrefix),
      ...given('times', numberValue(options.times)),
      fault,
    })
    .catch((error: unknown) => {
      throw flagRefusal(error, (field) => FLAG_OF_FIELD.get(field));
    });
}

export default defineCommand({
  run: addFault,
  render: (fault) => `Fault added: ${describeFault(fault)}`,
});
