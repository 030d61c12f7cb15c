import { randomBytes } from 'node:crypto';
import { link, lstat, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { listAll } from '@parley/emulator/control';
import { controlApi } from '../../client/control-api';
import { resolveBaseUrl } from '../../config/resolve-base-url';
import type { ClientOptions } from '../../config/resolve-credentials';
import type { CommandContext } from '../../context';
import { EXIT, ExitError, usageError } from '../../exit-error';
import { terminalSafe } from '../../output/terminal-safe';
import { importEmulator } from '../_import-emulator';
import { defineCommand } from '../command-module';
import { idOption } from '../emulator/_id-option';

/** `parley scenario record --out FILE [--workspace ID] [--app ID] [--force]`. */
export interface ScenarioRecordOptions extends ClientOptions {
  out: string;
  workspace?: string;
  app?: string;
  force?: boolean;
}

/** What `parley scenario record` wrote. */
export interface ScenarioRecordResult {
  file: string;
  application_id: string;
  workspace_id: string;
  steps: number;
  /** What the emulator held and the file could not replay, each named in a comment at its top (absent when none). */
  not_recorded?: number;
}

/** What `parley scenario record` says when the optional peer `@parley/emulator` is not installed. */
export const SCENARIO_RECORD_EMULATOR_MISSING =
  'parley scenario record needs @parley/emulator: npm install -D @parley/emulator';

/**
 * Records an application's history in the running emulator (its control API at the base URL's
 * origin) as a scenario file that `parley scenario run` replays: its sends at their times, the
 * customer messages, and the statuses and deliveries they reached. The file is written whole or
 * not at all (a temporary file renamed), and an existing one is kept unless `--force`.
 */
export async function recordScenarioFile(
  options: ScenarioRecordOptions,
  context: CommandContext,
): Promise<ScenarioRecordResult> {
  if (typeof options.out !== 'string' || options.out === '') throw usageError('--out takes a file');
  const workspaceId = idOption(options.workspace);
  const appId = idOption(options.app, '--app', 'GET /_emulator/applications');
  if (options.force !== true && (await exists(options.out))) {
    throw usageError(`${options.out} exists: pass --force to replace it`);
  }
  const { recordScenario } = await importEmulator(SCENARIO_RECORD_EMULATOR_MISSING);
  const { baseUrl, source } = await resolveBaseUrl(options, context.env);
  if (!URL.canParse(baseUrl)) {
    throw new ExitError(EXIT.config, `the base URL "${baseUrl}" (from ${source}) is not a URL`);
  }
  const { client: control, call: calling } = controlApi(
    baseUrl,
    context.fetch ?? ((request) => fetch(request)),
  );
  const applications = await calling('GET /_emulator/applications', () =>
    listAll((page) =>
      control.listApplications({ ...page, ...(workspaceId === undefined ? {} : { workspaceId }) }),
    ),
  );
  const where = workspaceId === undefined ? 'in the emulator' : `in workspace ${workspaceId}`;
  let application = applications[0];
  if (appId !== undefined) {
    application = applications.find((each) => each.id === appId);
    if (application === undefined) {
      throw new ExitError(EXIT.api, `no application ${appId} ${where} (see GET /_emulator/applications)`);
    }
  } else if (applications.length !== 1 || application === undefined) {
    throw usageError(
      applications.length === 0
        ? `no application ${where} to record`
        : `${applications.length} applications ${where}: pass --app with one of ${applications
            .map((each) => `${each.id} (${terminalSafe(each.name)})`)
            .join(', ')}`,
    );
  }
  const text = await calling('the recording', () =>
    recordScenario(control, { applicationId: application.id, name: `recorded: ${application.name}` }),
  );
  await writeDurably(options.out, text, options.force === true);
  const notRecorded = (text.match(/^# - /gm) ?? []).length;
  return {
    file: options.out,
    application_id: application.id,
    workspace_id: application.workspace_id,
    steps: (text.match(/^ {2}- /gm) ?? []).length,
    ...(notRecorded === 0 ? {} : { not_recorded: notRecorded }),
  };
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw cannotWrite(file, error);
  }
}

const cannotWrite = (file: string, error: unknown) =>
  new ExitError(
    EXIT.config,
    `cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
  );

// A temporary file beside the target, flushed, then moved into place: a crash leaves the old file
// or the new one, never half of one. Without --force, link() refuses a file that appeared since the check.
async function writeDurably(file: string, text: string, replace: boolean): Promise<void> {
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'wx', 0o644);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (replace) {
      await rename(temporary, file);
    } else {
      await link(temporary, file);
      await unlink(temporary);
    }
    await syncDirectory(dirname(file));
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' && !replace) {
      throw usageError(`${file} exists: pass --force to replace it`);
    }
    throw cannotWrite(file, error);
  }
}

// The rename itself is durable once the directory is flushed (not every file system can).
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r').catch(() => undefined);
  if (handle === undefined) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
}

export default defineCommand({
  run: recordScenarioFile,
  render: (result) =>
    `Recorded application ${result.application_id} as ${result.steps} step(s) to ${terminalSafe(result.file)}: replay it with parley scenario run ${terminalSafe(result.file)}${
      result.not_recorded === undefined
        ? ''
        : `\n${result.not_recorded} thing(s) seen and not recorded (a fault's calls, chaos, an endpoint test…) are named in comments at the top of the file`
    }`,
});
