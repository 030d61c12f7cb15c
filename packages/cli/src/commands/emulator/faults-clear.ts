import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { openControl } from '../_open-control';
import { defineCommand } from '../command-module';
import { idOption } from './_id-option';

/** `parley emulator faults clear [ID]`. */
export interface FaultsClearOptions extends ClientOptions {
  /** One fault's id; every fault when absent. */
  id?: string;
}

/** What was removed: one fault, or all (`fault_id` null). */
export interface FaultsClearResult {
  ok: true;
  fault_id: string | null;
}

/** Removes one fault (an unknown id is exit 1, `not_found`), or every fault. */
export async function clearFaults(
  options: FaultsClearOptions,
  context: CommandContext,
): Promise<FaultsClearResult> {
  const id = idOption(options.id, 'faults clear', 'parley emulator faults list');
  const control = await openControl(options, context);
  if (id === undefined) await control.clearFaults();
  else await control.deleteFault(id);
  return { ok: true, fault_id: id ?? null };
}

export default defineCommand({
  run: clearFaults,
  render: (result) => (result.fault_id === null ? 'Every fault removed' : `Fault ${result.fault_id} removed`),
});
