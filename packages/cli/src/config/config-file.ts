import { mkdir, open, rename } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { EXIT, ExitError } from '../exit-error';
import { ConfigShapeError, parseConfig } from './_parse-config';
import { checkedProfileName } from './profile-name';

/** One saved profile: an API key and a base URL (either may be missing). */
export interface Profile {
  api_key?: string;
  base_url?: string;
  /** `parley listen`'s signing secret per forward URL, so the app's PARLEY_WEBHOOK_SECRET stays valid. */
  listen_secrets?: Map<string, string>;
  /** Fields of another version of the CLI: kept as they are when the file is rewritten. */
  [field: string]: unknown;
}

/** The whole config file. */
export interface ConfigFile {
  /** Profile used when neither `--profile` nor PARLEY_PROFILE names one. */
  current_profile?: string;
  /** By name: a Map, so `__proto__` or `constructor` is a profile like any other. */
  profiles: Map<string, Profile>;
}

/** The largest config file read: a real one is a few hundred bytes, and it is read on every run. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** Name of the profile used when nothing selects another one. */
export const DEFAULT_PROFILE = 'default';

/**
 * The profile in use: `--profile`, else PARLEY_PROFILE, else the config's current one, else
 * `default`. A flag or variable that is not a profile name is a usage error (exit 2).
 */
export function selectedProfile(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  config: ConfigFile,
): string {
  if (flag !== undefined) return checkedProfileName(flag, '--profile');
  if (env.PARLEY_PROFILE) return checkedProfileName(env.PARLEY_PROFILE, 'PARLEY_PROFILE');
  return config.current_profile ?? DEFAULT_PROFILE;
}

/**
 * Where profiles live: `$XDG_CONFIG_HOME/parley/config.json`, by default
 * `~/.config/parley/config.json` (XDG base directory spec, also on macOS for a CLI).
 */
export function configPath(env: Record<string, string | undefined>): string {
  const base = env.XDG_CONFIG_HOME ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), '.config');
  return join(base, 'parley', 'config.json');
}

/**
 * Reads the config file; a missing file is an empty config. One over {@link MAX_CONFIG_BYTES}, not
 * JSON, or with a field of the wrong type is a config error (exit 3) naming the file and the field.
 */
export async function readConfig(path: string): Promise<ConfigFile> {
  let bytes: Buffer | undefined;
  try {
    bytes = await readFileAtMost(path, MAX_CONFIG_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: new Map() };
    throw new ExitError(EXIT.config, `cannot read ${path}: ${(error as Error).message}`);
  }
  const fix = 'fix it or delete it and run `parley config set`';
  if (bytes === undefined) {
    throw new ExitError(EXIT.config, `${path} is over 1 MiB, which no config file is: ${fix}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ExitError(EXIT.config, `${path} is not valid JSON: ${fix}`);
  }
  try {
    return parseConfig(value);
  } catch (error) {
    if (!(error instanceof ConfigShapeError)) throw error;
    throw new ExitError(EXIT.config, `${path}: ${error.message}: ${fix}`);
  }
}

/** The file's bytes, or undefined when it holds more than `limit`: never more than `limit + 1` are read. */
async function readFileAtMost(path: string, limit: number): Promise<Buffer | undefined> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(limit + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await file.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return length > limit ? undefined : buffer.subarray(0, length);
  } finally {
    await file.close();
  }
}

/**
 * Writes the config file readable by its owner only (0600, directory 0700): it holds API keys.
 * Written to a temporary file first, so a crash never leaves half a file.
 */
export async function writeConfig(path: string, config: ConfigFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  const file = await open(temporary, 'w', 0o600);
  try {
    await file.writeFile(`${JSON.stringify(configJson(config), null, 2)}\n`);
    // open's mode is filtered by the umask and ignored for an existing file: set it explicitly.
    await file.chmod(0o600);
    // "Saved" is a promise: the bytes reach the disk before the name points at them.
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, path);
  const directory = await open(dirname(path), 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

/** The file's JSON: the Maps as objects (fromEntries defines own keys, so `__proto__` is written as a name). */
function configJson({ current_profile, profiles }: ConfigFile): object {
  const entries = [...profiles].map(([name, { listen_secrets, ...fields }]) => [
    name,
    listen_secrets === undefined ? fields : { ...fields, listen_secrets: Object.fromEntries(listen_secrets) },
  ]);
  return {
    ...(current_profile === undefined ? {} : { current_profile }),
    profiles: Object.fromEntries(entries),
  };
}
