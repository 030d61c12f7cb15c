import { EXIT, ExitError } from '../exit-error';
import type { ConfigFile } from './config-file';
import { checkedProfileName } from './profile-name';

/** The global flags every API command takes. */
export interface ClientOptions {
  apiKey?: string;
  baseUrl?: string;
  profile?: string;
}

/** A resolved key and base URL, with where each came from (named in error messages). */
export interface Credentials {
  apiKey: string;
  baseUrl: string;
  /** The profile in use (named in a 401 message even when the key came from elsewhere). */
  profile: string;
  apiKeySource: string;
  baseUrlSource: string;
}

/**
 * Resolves the API key and base URL with precedence flag > environment > profile. The profile
 * is `--profile`, else PARLEY_PROFILE, else the config's current profile, else `default`.
 * Missing values are config errors (exit 3) that name every way to provide them.
 */
export async function resolveCredentials(
  options: ClientOptions,
  env: Record<string, string | undefined>,
): Promise<Credentials> {
  const needsFile = !(options.apiKey ?? env.PARLEY_API_KEY) || !(options.baseUrl ?? env.PARLEY_BASE_URL);
  let path = '';
  let config: ConfigFile = { profiles: new Map() };
  // The config file (and node:fs/promises) is loaded only when flags and env leave a gap.
  if (needsFile || options.profile) {
    const file = await import('./config-file');
    path = file.configPath(env);
    config = await file.readConfig(path);
  }
  // The same choice as config-file's selectedProfile, which is not loaded when no file is read.
  const explicitProfile =
    options.profile !== undefined
      ? checkedProfileName(options.profile, '--profile')
      : env.PARLEY_PROFILE
        ? checkedProfileName(env.PARLEY_PROFILE, 'PARLEY_PROFILE')
        : undefined;
  const profileName = explicitProfile ?? config.current_profile ?? 'default';
  const profile = config.profiles.get(profileName);
  if (options.profile && !profile) {
    throw new ExitError(
      EXIT.config,
      `no profile "${profileName}" in ${path}: create it with \`parley config set --profile ${profileName} --api-key … --base-url …\``,
    );
  }
  const apiKey = pick(
    options.apiKey,
    env.PARLEY_API_KEY,
    profile?.api_key,
    profileName,
    '--api-key',
    'PARLEY_API_KEY',
  );
  const baseUrl = pick(
    options.baseUrl,
    env.PARLEY_BASE_URL,
    profile?.base_url,
    profileName,
    '--base-url',
    'PARLEY_BASE_URL',
  );
  if (!apiKey) {
    throw new ExitError(
      EXIT.config,
      `no API key: pass --api-key, set PARLEY_API_KEY, or save one with \`parley config set --profile ${profileName} --api-key …\``,
    );
  }
  if (!baseUrl) {
    throw new ExitError(
      EXIT.config,
      `no base URL: pass --base-url or set PARLEY_BASE_URL (the emulator's is http://127.0.0.1:4010/v1), or save one with \`parley config set --profile ${profileName} --base-url …\``,
    );
  }
  return {
    apiKey: apiKey.value,
    baseUrl: baseUrl.value,
    profile: profileName,
    apiKeySource: apiKey.source,
    baseUrlSource: baseUrl.source,
  };
}

function pick(
  flag: string | undefined,
  environment: string | undefined,
  saved: string | undefined,
  profileName: string,
  flagName: string,
  envName: string,
): { value: string; source: string } | undefined {
  if (flag) return { value: flag, source: flagName };
  if (environment) return { value: environment, source: envName };
  if (saved) return { value: saved, source: `profile "${profileName}"` };
  return undefined;
}
