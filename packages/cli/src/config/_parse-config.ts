import type { ConfigFile, Profile } from './config-file';
import { isProfileName, PROFILE_NAME_RULE } from './profile-name';

/** What is wrong with the file, naming the field: `profiles.prod.api_key must be a string (got number)`. */
export class ConfigShapeError extends Error {
  override readonly name = 'ConfigShapeError';
}

/**
 * The config file's JSON value as a {@link ConfigFile}, every field's type checked: profiles go
 * into a Map (a name is never looked up on a plain object), a profile's fields the CLI does not
 * know are kept as they are, fields of the file it does not know are dropped.
 */
export function parseConfig(value: unknown): ConfigFile {
  if (!isRecord(value)) throw wrongType('the file', 'a JSON object', value);
  const config: ConfigFile = { profiles: new Map() };
  if (value.current_profile !== undefined) {
    if (typeof value.current_profile !== 'string') {
      throw wrongType('current_profile', 'a profile name', value.current_profile);
    }
    config.current_profile = checkedName(value.current_profile, 'current_profile');
  }
  if (value.profiles === undefined) return config;
  if (!isRecord(value.profiles)) {
    throw wrongType('profiles', 'an object of profiles by name', value.profiles);
  }
  for (const [name, profile] of Object.entries(value.profiles)) {
    config.profiles.set(checkedName(name, `profile name`), parseProfile(profile, `profiles.${name}`));
  }
  return config;
}

function parseProfile(value: unknown, field: string): Profile {
  if (!isRecord(value)) throw wrongType(field, 'an object', value);
  // fromEntries defines own properties: a "__proto__" field stays a field.
  const profile: Profile = Object.fromEntries(Object.entries(value));
  for (const key of ['api_key', 'base_url'] as const) {
    if (value[key] !== undefined && typeof value[key] !== 'string') {
      throw wrongType(`${field}.${key}`, 'a string', value[key]);
    }
  }
  delete profile.listen_secrets;
  if (value.listen_secrets !== undefined) {
    if (!isRecord(value.listen_secrets)) {
      throw wrongType(`${field}.listen_secrets`, 'an object of secrets by URL', value.listen_secrets);
    }
    const secrets = new Map<string, string>();
    for (const [url, secret] of Object.entries(value.listen_secrets)) {
      if (typeof secret !== 'string')
        throw wrongType(`${field}.listen_secrets["${url}"]`, 'a string', secret);
      secrets.set(url, secret);
    }
    profile.listen_secrets = secrets;
  }
  return profile;
}

function checkedName(name: string, field: string): string {
  if (isProfileName(name)) return name;
  throw new ConfigShapeError(`${field} "${name}" is not allowed: ${PROFILE_NAME_RULE}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function wrongType(field: string, expected: string, value: unknown): ConfigShapeError {
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
  return new ConfigShapeError(`${field} must be ${expected} (got ${got})`);
}
