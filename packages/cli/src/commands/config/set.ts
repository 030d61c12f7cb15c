import { configPath, readConfig, selectedProfile, writeConfig } from '../../config/config-file';
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
  if (options.apiKey !== undefined) checkApiKey(options.apiKey);
  const baseUrl = options.baseUrl === undefined ? undefined : checkedBaseUrl(options.baseUrl);
  const path = configPath(context.env);
  const config = await readConfig(path);
  const name = selectedProfile(options.profile, context.env, config);
  const profile = { ...config.profiles.get(name) };
  if (options.apiKey) profile.api_key = options.apiKey;
  if (baseUrl) profile.base_url = baseUrl;
  config.profiles.set(name, profile);
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

// The shape every Parley key has; checked here so a typo is caught when saved, not at the first call.
const API_KEY_PATTERN = /^prl_(sandbox|live)_[A-Za-z0-9]{32}$/;

function checkApiKey(key: string): void {
  if (API_KEY_PATTERN.test(key)) return;
  // The refused value is shown masked like a saved one: it may be a real key with a typo.
  throw usageError(
    `--api-key must be prl_sandbox_ or prl_live_ followed by 32 letters or digits (got ${maskKey(key)}, ${key.length} characters)`,
  );
}

/** The base URL without trailing slashes; http(s) and ending in /v1, with a suggestion when it does not. */
function checkedBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usageError(`--base-url must be an http(s) URL ending in /v1, e.g. http://127.0.0.1:4010/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError(`--base-url must be an http(s) URL ending in /v1, e.g. http://127.0.0.1:4010/v1`);
  }
  const trimmed = text.replace(/\/+$/, '');
  if (url.pathname.replace(/\/+$/, '').endsWith('/v1') && !url.search && !url.hash) return trimmed;
  const path = url.pathname.replace(/\/+$/, '');
  const v1 = path.indexOf('/v1/');
  const suggestion = `${url.origin}${v1 === -1 ? `${path}/v1` : path.slice(0, v1 + 3)}`;
  throw usageError(`--base-url must end in /v1: did you mean ${suggestion}?`);
}

export default defineCommand({
  run: configSet,
  render: (result, { style }) =>
    `Saved profile ${style.bold(result.profile)} in ${result.path}` +
    (result.api_key ? ` (key ${result.api_key})` : '') +
    (result.current ? '' : `\nMake it the default with: parley config use ${result.profile}`),
});
