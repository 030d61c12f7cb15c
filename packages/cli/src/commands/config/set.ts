import { configPath, DEFAULT_PROFILE, readConfig, writeConfig } from '../../config/config-file';
import { maskKey } from '../../config/mask-key';
import type { CommandContext } from '../../context';
import { usageError } from '../../exit-error';
import { defineCommand } from '../command-module';

/** `parley config set`: the global `--profile`, `--api-key` and `--base-url` flags. */
export interface ConfigSetOptions {
  profile?: string;
  apiKey?: string;
  baseUrl?: string;
}

/** What was saved; the key only masked. */
export interface ConfigSetResult {
  profile: string;
  path: string;
  api_key: string | null;
  base_url: string | null;
  current: boolean;
}

/**
 * Saves an API key and/or base URL in a profile (created when new; the first profile becomes the
 * current one). The file is written with mode 0600.
 */
export async function configSet(
  options: ConfigSetOptions,
  context: CommandContext,
): Promise<ConfigSetResult> {
  if (!options.apiKey && !options.baseUrl) {
    throw usageError(
      'nothing to save: pass --api-key and/or --base-url (and --profile NAME for another profile)',
    );
  }
  if (options.baseUrl !== undefined && !isHttpUrl(options.baseUrl)) {
    throw usageError(`--base-url must be an http(s) URL ending in /v1, e.g. http://127.0.0.1:4010/v1`);
  }
  const path = configPath(context.env);
  const config = await readConfig(path);
  const name =
    options.profile ?? (context.env.PARLEY_PROFILE || undefined) ?? config.current_profile ?? DEFAULT_PROFILE;
  const profile = { ...config.profiles[name] };
  if (options.apiKey) profile.api_key = options.apiKey;
  if (options.baseUrl) profile.base_url = options.baseUrl.replace(/\/+$/, '');
  config.profiles[name] = profile;
  config.current_profile ??= name;
  await writeConfig(path, config);
  return {
    profile: name,
    path,
    api_key: profile.api_key ? maskKey(profile.api_key) : null,
    base_url: profile.base_url ?? null,
    current: config.current_profile === name,
  };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export default defineCommand({
  run: configSet,
  render: (result, { style }) =>
    `Saved profile ${style.bold(result.profile)} in ${result.path}` +
    (result.api_key ? ` (key ${result.api_key})` : '') +
    (result.current ? '' : `\nMake it the default with: parley config use ${result.profile}`),
});
