import { usageError } from '../../exit-error';

// Every signing secret Parley makes starts so; the rest of its shape is Parley's to change.
const SECRET_PREFIX = 'whsec_';

/**
 * `--secret` values (repeatable, new first during a rotation), else PARLEY_WEBHOOK_SECRET. One
 * that is not a `whsec_` secret is a usage error naming where it came from: checked with it, every
 * signature would only "mismatch". The value itself is never echoed: it may be a real secret.
 */
export function webhookSecrets(
  flags: readonly string[] | undefined,
  env: Record<string, string | undefined>,
): string[] {
  if (flags && flags.length > 0) {
    flags.forEach((secret, index) => {
      checkSecret(secret, flags.length === 1 ? '--secret' : `--secret #${index + 1}`);
    });
    return [...flags];
  }
  if (env.PARLEY_WEBHOOK_SECRET) {
    checkSecret(env.PARLEY_WEBHOOK_SECRET, 'PARLEY_WEBHOOK_SECRET');
    return [env.PARLEY_WEBHOOK_SECRET];
  }
  throw usageError(
    'missing --secret: pass the endpoint signing secret (whsec_…) or set PARLEY_WEBHOOK_SECRET',
  );
}

function checkSecret(secret: string, source: string): void {
  if (secret.startsWith(SECRET_PREFIX) && secret.length > SECRET_PREFIX.length) return;
  const mixUp = secret.startsWith('prl_') ? ' (it looks like an API key)' : '';
  throw usageError(
    `${source} is not a whsec_ secret${mixUp}: pass the endpoint's signing secret, whsec_…, as the console or \`parley listen --print-secret\` shows it`,
  );
}
