import { usageError } from '../../exit-error';

/** `--secret` values (repeatable, new first during a rotation), else PARLEY_WEBHOOK_SECRET. */
export function webhookSecrets(
  flags: readonly string[] | undefined,
  env: Record<string, string | undefined>,
): string[] {
  if (flags && flags.length > 0) return [...flags];
  if (env.PARLEY_WEBHOOK_SECRET) return [env.PARLEY_WEBHOOK_SECRET];
  throw usageError(
    'missing --secret: pass the endpoint signing secret (whsec_…) or set PARLEY_WEBHOOK_SECRET',
  );
}
