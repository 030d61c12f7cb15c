import { configPath, readConfig, writeConfig } from '../../config/config-file';
import { checkedProfileName } from '../../config/profile-name';
import type { CommandContext } from '../../context';
import { usageError } from '../../exit-error';
import { defineCommand } from '../command-module';

/** `parley config delete NAME`. */
export interface ConfigDeleteOptions {
  name: string;
}

/** What was deleted, and the current profile afterwards (null when the deleted one was current). */
export interface ConfigDeleteResult {
  deleted: string;
  current_profile: string | null;
  remaining: string[];
}

/** Deletes a saved profile (its key, base URL and listen secrets) from the config file. */
export async function configDelete(
  options: ConfigDeleteOptions,
  context: CommandContext,
): Promise<ConfigDeleteResult> {
  const name = checkedProfileName(options.name, 'NAME');
  const path = configPath(context.env);
  const config = await readConfig(path);
  if (!config.profiles.delete(name)) {
    const known = [...config.profiles.keys()];
    throw usageError(
      `no profile "${name}" in ${path}` + (known.length ? ` (known: ${known.join(', ')})` : ''),
    );
  }
  // A current profile that no longer exists would make every command fail: unset it instead.
  if (config.current_profile === name) delete config.current_profile;
  await writeConfig(path, config);
  return {
    deleted: name,
    current_profile: config.current_profile ?? null,
    remaining: [...config.profiles.keys()],
  };
}

export default defineCommand({
  run: configDelete,
  render: (result, { style }) =>
    `Deleted profile ${style.bold(result.deleted)}` +
    (result.current_profile === null && result.remaining.length > 0
      ? `\nNo current profile now: choose one with \`parley config use ${result.remaining[0]}\``
      : ''),
});
