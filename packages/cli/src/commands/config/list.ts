import { configPath, DEFAULT_PROFILE, readConfig } from '../../config/config-file';
import { maskKey } from '../../config/mask-key';
import type { CommandContext } from '../../context';
import { renderTable } from '../../output/table';
import { defineCommand } from '../command-module';

/** One profile as `config list` shows it: never the full key. */
export interface ProfileSummary {
  name: string;
  current: boolean;
  api_key: string | null;
  base_url: string | null;
}

/** Lists saved profiles with masked keys (`prl_sandbox_…abcd`). */
export async function configList(_options: object, context: CommandContext): Promise<ProfileSummary[]> {
  const config = await readConfig(configPath(context.env));
  const current = config.current_profile ?? DEFAULT_PROFILE;
  return [...config.profiles].map(([name, profile]) => ({
    name,
    current: name === current,
    api_key: profile.api_key ? maskKey(profile.api_key) : null,
    base_url: profile.base_url ?? null,
  }));
}

export default defineCommand({
  run: configList,
  render: (profiles, { style, env }) =>
    profiles.length === 0
      ? `No profiles in ${configPath(env)}. Create one: parley config set --api-key … --base-url …`
      : renderTable(
          style,
          ['', 'PROFILE', 'API KEY', 'BASE URL'],
          profiles.map((profile) => [
            profile.current ? style.green('*') : ' ',
            profile.name,
            profile.api_key ?? style.dim('-'),
            profile.base_url ?? style.dim('-'),
          ]),
        ),
});
