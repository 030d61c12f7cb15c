import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { EXIT, ExitError } from '../exit-error';

/** One saved profile: an API key and a base URL (either may be missing). */
export interface Profile {
  api_key?: string;
  base_url?: string;
  /** `parley listen`'s signing secret per forward URL, so the app's PARLEY_WEBHOOK_SECRET stays valid. */
  listen_secrets?: Record<string, string>;
}

/** The whole config file. */
export interface ConfigFile {
  /** Profile used when neither `--profile` nor PARLEY_PROFILE names one. */
  current_profile?: string;
  profiles: Record<string, Profile>;
}

/** Name of the profile used when nothing selects another one. */
export const DEFAULT_PROFILE = 'default';

/** The profile in use: `--profile`, else PARLEY_PROFILE, else the config's current one, else `default`. */
export function selectedProfile(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  config: ConfigFile,
): string {
  return flag ?? (env.PARLEY_PROFILE || undefined) ?? config.current_profile ?? DEFAULT_PROFILE;
}

/**
 * Where profiles live: `$XDG_CONFIG_HOME/parley/config.json`, by default
 * `~/.config/parley/config.json` (XDG base directory spec, also on macOS for a CLI).
 */
export function configPath(env: Record<string, string | undefined>): string {
  const base = env.XDG_CONFIG_HOME ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), '.config');
  return join(base, 'parley', 'config.json');
}

/** Reads the config file; a missing file is an empty config, a broken one a config error (exit 3). */
export async function readConfig(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw new ExitError(EXIT.config, `cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as Partial<ConfigFile>;
    if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
    const config: ConfigFile = { profiles: parsed.profiles ?? {} };
    if (typeof parsed.current_profile === 'string') config.current_profile = parsed.current_profile;
    return config;
  } catch {
    throw new ExitError(
      EXIT.config,
      `${path} is not valid JSON: fix it or delete it and run \`parley config set\``,
    );
  }
}

/**
 * Writes the config file readable by its owner only (0600, directory 0700): it holds API keys.
 * Written to a temporary file first, so a crash never leaves half a file.
 */
export async function writeConfig(path: string, config: ConfigFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // writeFile's mode is filtered by the umask and ignored for an existing file: set it explicitly.
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}
