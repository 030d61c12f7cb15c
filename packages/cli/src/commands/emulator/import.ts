import type { ImportView } from '@parley/emulator/control';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { EXIT, ExitError, isExitError } from '../../exit-error';
import { openControl } from '../_open-control';
import { defineCommand } from '../command-module';
import { readBundleFile } from './_bundle-file';

/** `parley emulator import FILE`. */
export interface EmulatorImportOptions extends ClientOptions {
  file: string;
}

/** What `parley emulator import` did. */
export interface EmulatorImportResult extends ImportView {
  emulator: string;
  file: string;
}

/**
 * Makes a bundle of `parley emulator export` the running emulator's state (`POST /_emulator/import`).
 * A bundle the emulator refuses (a wrong field, another version) is a bad input file: exit 2,
 * naming the place in the file; the emulator's state is then unchanged.
 */
export async function importEmulator(
  options: EmulatorImportOptions,
  context: CommandContext,
): Promise<EmulatorImportResult> {
  const bundle = await readBundleFile(options.file);
  const control = await openControl(options, context);
  try {
    return { emulator: control.origin, file: options.file, ...(await control.importState(bundle)) };
  } catch (error) {
    if (isExitError(error) && error.body.error.code === 'validation_error') {
      throw new ExitError(EXIT.usage, `${options.file}: ${error.body.error.message}`, error.body);
    }
    throw error;
  }
}

export default defineCommand({
  run: importEmulator,
  render: (result) =>
    `Emulator at ${result.emulator} now runs ${result.file}: ${result.counts.workspaces} workspace(s), ${result.counts.applications} application(s), ${result.counts.messages} message(s), ${result.counts.deliveries} deliveries, ${result.counts.pending_jobs} pending job(s); clock ${result.clock.now} (${result.clock.mode})${result.new_secrets > 0 ? `; ${result.new_secrets} endpoint(s) got a new signing secret (the bundle had none: export with --include-secrets to keep them)` : ''}`,
});
