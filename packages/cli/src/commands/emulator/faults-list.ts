import type { FaultView } from '@parley/emulator/control';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { openControl } from '../_open-control';
import { defineCommand } from '../command-module';
import { describeFault } from './_faults';

/** The injected faults, oldest first; used-up ones stay listed with 0 left until cleared. */
export async function listFaults(options: ClientOptions, context: CommandContext): Promise<FaultView[]> {
  const control = await openControl(options, context);
  return control.listFaults();
}

export default defineCommand({
  run: listFaults,
  render: (faults) =>
    faults.length === 0
      ? 'No faults: every /v1 request gets its real answer'
      : faults.map(describeFault).join('\n'),
});
