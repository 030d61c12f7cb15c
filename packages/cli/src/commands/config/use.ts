import { configPath, readConfig, writeConfig } from '../../config/config-file';
import { checkedProfileName } from '../../config/profile-name';
import type { CommandContext } from '../../context';
import { usageError } from '../../exit-error';
import { defineCommand } from '../command-module';

/** `parley config use NAME`. */
export interface ConfigUseOptions {
  name: string;
}

/** Makes a saved profile the one used when neither `--profile` nor PARLEY_PROFILE names another. */
export async function configUse(
  options: ConfigUseOptions,
  context: CommandContext,
): Promise<{ current_profile: string }> {
  const name = checkedProfileName(options.name, 'NAME');
  const path = configPath(context.env);
  const config = await readConfig(path);
  if (!config.profiles.has(name)) {
    const known = [...config.profiles.keys()];
    throw usageError(
      `no profile "${name}"` +
        (known.length ? ` (known: ${known.join(', ')})` : '') +
        `: create it with \`parley config set --profile ${name} --api-key …\``,
    );
  }
  config.current_profile = name;
  await writeConfig(path, config);
  return { current_profile: name };
}

export default defineCommand({
  run: configUse,
  render: (result, { style }) => `Now using profile ${style.bold(result.current_profile)}`,
});
