import type { HarLog } from '@parley/emulator/control';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { terminalSafe, terminalSafeJson } from '../../output/terminal-safe';
import { openControl } from '../_open-control';
import { defineCommand } from '../command-module';
import { writeJsonFile } from './_bundle-file';
import { workspaceOption } from './_id-option';

/** `parley emulator har [--out FILE] [--since TIME] [--workspace ID] [--deliveries]`. */
export interface EmulatorHarOptions extends ClientOptions {
  out?: string;
  since?: string;
  workspace?: string;
  deliveries?: boolean;
}

/** What `parley emulator har` did: the HAR, and the file it went to (null: stdout). */
export interface EmulatorHarResult {
  file: string | null;
  har: HarLog;
}

/**
 * The emulator's recent /v1 traffic (and with `--deliveries` its webhook attempts) as HAR 1.2
 * (`GET /_emulator/har`), keys and secrets masked: open it in a browser's network panel.
 */
export async function emulatorHar(
  options: EmulatorHarOptions,
  context: CommandContext,
): Promise<EmulatorHarResult> {
  const workspaceId = workspaceOption(options.workspace);
  const control = await openControl(options, context);
  const har = await control.har({
    ...(options.since === undefined ? {} : { since: options.since }),
    ...(workspaceId === undefined ? {} : { workspaceId }),
    deliveries: options.deliveries === true,
  });
  if (options.out === undefined) return { file: null, har };
  await writeJsonFile(options.out, har);
  return { file: options.out, har };
}

export default defineCommand({
  run: emulatorHar,
  ownText: true,
  render: (result) =>
    result.file === null
      ? terminalSafeJson(result.har, 2)
      : `Wrote ${result.har.log.entries.length} request(s) as HAR 1.2 to ${terminalSafe(result.file)}`,
  json: (result) =>
    result.file === null
      ? result.har
      : { ok: true, file: result.file, entries: result.har.log.entries.length },
});
