import { randomInt } from 'node:crypto';
import { configPath, readConfig, selectedProfile, writeConfig } from '../../config/config-file';
import { EXIT, ExitError, usageError } from '../../exit-error';

/** The emulator's secret shape (`whsec_` + 32 base62), which it checks when an endpoint is created. */
const SECRET_PATTERN = /^whsec_[A-Za-z0-9]{32}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The secret `listen` registers, and where it came from. */
export interface ListenSecret {
  secret: string;
  profile: string;
  /**
   * `stored`: saved by an earlier run; `new`: made and saved now; `flag`: `--secret`, not saved;
   * `unsaved`: made now but the config file could not be written (`problem` says why).
   */
  origin: 'stored' | 'new' | 'flag' | 'unsaved';
  problem?: string;
}

/**
 * The signing secret for `forwardTo`: `--secret` when given (for this run only), else the one
 * saved in the profile for that URL, else a new one saved there (config file, mode 0600). So every
 * `listen` to the same app signs with the same secret and the app's PARLEY_WEBHOOK_SECRET stays valid.
 */
export async function listenSecret(
  forwardTo: string,
  options: { secret?: string | undefined; profile?: string | undefined },
  env: Record<string, string | undefined>,
): Promise<ListenSecret> {
  const path = configPath(env);
  const config = await readConfig(path);
  const profile = selectedProfile(options.profile, env, config);
  if (options.secret !== undefined) {
    if (!SECRET_PATTERN.test(options.secret)) {
      throw usageError(
        '--secret must be whsec_ followed by 32 letters or digits, as the emulator makes them',
      );
    }
    return { secret: options.secret, profile, origin: 'flag' };
  }
  if (options.profile && !config.profiles.has(profile)) {
    throw new ExitError(
      EXIT.config,
      `no profile "${profile}" in ${path}: create it with \`parley config set --profile ${profile} --api-key … --base-url …\``,
    );
  }
  const saved = config.profiles.get(profile)?.listen_secrets?.get(forwardTo);
  if (saved && SECRET_PATTERN.test(saved)) return { secret: saved, profile, origin: 'stored' };
  const secret = generateSecret();
  const entry = { ...config.profiles.get(profile) };
  entry.listen_secrets = new Map(entry.listen_secrets).set(forwardTo, secret);
  config.profiles.set(profile, entry);
  try {
    await writeConfig(path, config);
  } catch (error) {
    // Forwarding still works with this run's secret; only the next run will have another one.
    return {
      secret,
      profile,
      origin: 'unsaved',
      problem: `cannot write ${path}: ${(error as Error).message}`,
    };
  }
  return { secret, profile, origin: 'new' };
}

function generateSecret(): string {
  let secret = 'whsec_';
  // randomInt draws without modulo bias: every character is uniform over the 62.
  for (let index = 0; index < 32; index++) secret += BASE62[randomInt(62)];
  return secret;
}
