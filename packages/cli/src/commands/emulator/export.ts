import type { StateBundle } from '@parley/emulator/control';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { terminalSafe, terminalSafeJson } from '../../output/terminal-safe';
import { openControl } from '../_open-control';
import { defineCommand } from '../command-module';
import { writeJsonFile } from './_bundle-file';
import { workspaceOption } from './_id-option';

/** `parley emulator export [--workspace ID] [--out FILE] [--include-secrets]`. */
export interface EmulatorExportOptions extends ClientOptions {
  workspace?: string;
  out?: string;
  includeSecrets?: boolean;
}

/** What `parley emulator export` did: the bundle, and the file it went to (null: stdout). */
export interface EmulatorExportResult {
  file: string | null;
  bundle: StateBundle;
}

/**
 * The emulator's state (or one workspace's), clocks and activity as one bundle
 * (`GET /_emulator/export`), written to `--out` or printed; `parley emulator import` and
 * `parley-emulator --import` start from it.
 */
export async function exportEmulator(
  options: EmulatorExportOptions,
  context: CommandContext,
): Promise<EmulatorExportResult> {
  const workspaceId = workspaceOption(options.workspace);
  const control = await openControl(options, context);
  const bundle = await control.exportState({
    ...(workspaceId === undefined ? {} : { workspaceId }),
    includeSecrets: options.includeSecrets === true,
  });
  if (options.out === undefined) return { file: null, bundle };
  await writeJsonFile(options.out, bundle);
  return { file: options.out, bundle };
}

/** One line about a written bundle. */
function summary({ file, bundle }: EmulatorExportResult): string {
  const secrets = bundle.secrets_included ? 'with signing secrets' : 'without signing secrets';
  return `Exported ${bundle.workspaces.length} workspace(s), ${bundle.applications.length} application(s), ${bundle.messages.length} message(s), ${bundle.deliveries.length} deliveries and ${bundle.pending_jobs.length} pending job(s) at ${bundle.exported_at}, ${secrets}, to ${terminalSafe(file ?? '')}`;
}

export default defineCommand({
  run: exportEmulator,
  // Without --out the bundle itself is the output, as JSON whatever the mode.
  ownText: true,
  render: (result) => (result.file === null ? terminalSafeJson(result.bundle, 2) : summary(result)),
  json: (result) =>
    result.file === null
      ? result.bundle
      : {
          ok: true,
          file: result.file,
          exported_at: result.bundle.exported_at,
          secrets_included: result.bundle.secrets_included,
          counts: {
            workspaces: result.bundle.workspaces.length,
            applications: result.bundle.applications.length,
            messages: result.bundle.messages.length,
            deliveries: result.bundle.deliveries.length,
            pending_jobs: result.bundle.pending_jobs.length,
          },
        },
});
