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
  /** Set when nothing named a key or base URL and the emulator found on loopback gave both: its origin. */
  localEmulator?: string;
}

/** Looking for a local emulator when nothing names a key or base URL; `fetch` replaces the network. */
export interface LocalEmulatorProbe {
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * Resolves the API key and base URL with precedence flag > environment > profile. The profile
 * is `--profile`, else PARLEY_PROFILE, else the config's current profile, else `default`.
 * When none names either and `probe` is given, an emulator answering on 127.0.0.1:4010 gives
 * both (its ready sandbox key). Missing values are config errors (exit 3) that name every way
 * to provide them.
 */
export async function resolveCredentials(
  options: ClientOptions,
  env: Record<string, string | undefined>,
  probe?: LocalEmulatorProbe,
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
  // Only with nothing set at all: a key or base URL given anywhere means the user chose a target.
  if (!apiKey && !baseUrl) return useLocalEmulator(env, profileName, probe);
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

/**
 * The emulator on loopback as the credentials' source, or the error naming both variables with
 * the emulator's values. Its module (the control client) loads only on this path.
 */
async function useLocalEmulator(
  env: Record<string, string | undefined>,
  profileName: string,
  probe: LocalEmulatorProbe | undefined,
): Promise<Credentials> {
  const local = await import('./local-emulator');
  const found = probe && (await local.findLocalEmulator(env, probe.fetch));
  if (found) {
    const source = `the local emulator at ${found.origin}`;
    return {
      apiKey: found.apiKey,
      baseUrl: found.baseUrl,
      profile: profileName,
      apiKeySource: source,
      baseUrlSource: source,
      localEmulator: found.origin,
    };
  }
  const origin = probe && local.probeOrigin(env);
  const { baseUrl, apiKey } = local.LOCAL_EMULATOR_VALUES;
  throw new ExitError(
    EXIT.config,
    `no API key or base URL${origin ? `, and no emulator answers at ${origin}` : ''}: pass --api-key and --base-url, set PARLEY_API_KEY and PARLEY_BASE_URL, or save them with \`parley config set --profile ${profileName} --api-key … --base-url …\`. For a local emulator (\`npx parley-emulator\`): PARLEY_BASE_URL=${baseUrl} PARLEY_API_KEY=${apiKey}`,
  );
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
