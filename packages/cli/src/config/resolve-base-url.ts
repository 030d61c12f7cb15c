import { EXIT, ExitError } from '../exit-error';
import type { ClientOptions } from './resolve-credentials';

/** Where `parley emulator start` listens by default: what the emulator commands talk to without a base URL. */
export const DEFAULT_EMULATOR_BASE_URL = 'http://127.0.0.1:4010/v1';

/**
 * The base URL alone, for the emulator commands that need no API key: `--base-url`, else
 * PARLEY_BASE_URL, else the profile's, else the emulator's default address.
 */
export async function resolveBaseUrl(
  options: ClientOptions,
  env: Record<string, string | undefined>,
): Promise<{ baseUrl: string; source: string }> {
  if (options.baseUrl) return { baseUrl: options.baseUrl, source: '--base-url' };
  if (env.PARLEY_BASE_URL) return { baseUrl: env.PARLEY_BASE_URL, source: 'PARLEY_BASE_URL' };
  const file = await import('./config-file');
  const path = file.configPath(env);
  const config = await file.readConfig(path);
  const name = file.selectedProfile(options.profile, env, config);
  const profile = config.profiles.get(name);
  if (options.profile && !profile) {
    throw new ExitError(
      EXIT.config,
      `no profile "${name}" in ${path}: create it with \`parley config set --profile ${name} --base-url …\``,
    );
  }
  if (profile?.base_url) return { baseUrl: profile.base_url, source: `profile "${name}"` };
  return { baseUrl: DEFAULT_EMULATOR_BASE_URL, source: 'the default' };
}
