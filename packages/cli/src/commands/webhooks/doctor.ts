import type { CommandContext } from '../../context';
import { EXIT, ExitError, usageError } from '../../exit-error';
import { defineCommand } from '../command-module';
import { type DoctorCase, runBattery } from './_doctor-battery';
import { deliverer } from './_doctor-post';
import { renderDoctorReport } from './_doctor-report';
import { webhookSecrets } from './_secrets';

/** `parley webhooks doctor URL`. */
export interface DoctorOptions {
  url: string;
  /** The receiver's signing secret (repeatable flag: the first is used); default PARLEY_WEBHOOK_SECRET. */
  secret?: string[];
  /** Seconds to wait for each answer, as typed; at most Parley's 15. */
  timeout?: string | number;
}

/** What the doctor found: the same data in the human report and under `--json`. */
export interface DoctorReport {
  url: string;
  /** No case failed (cases that could not be checked do not count against it). */
  ok: boolean;
  timeout_ms: number;
  counts: { passed: number; failed: number; unchecked: number };
  cases: DoctorCase[];
}

/** Parley abandons an attempt after 15 s (spec 8); a longer wait would pass a receiver it gives up on. */
const PARLEY_TIMEOUT_SECONDS = 15;

/**
 * Fires a battery of signed deliveries at a running receiver and grades its answers: what it must
 * accept, refuse, deduplicate and drop, and how fast it answers. Failed cases make exit 1 (with
 * the report still printed), so it can gate CI; an unreachable receiver is exit 3.
 */
export async function doctor(options: DoctorOptions, context: CommandContext): Promise<DoctorReport> {
  const url = checkedUrl(options.url);
  const [secret] = webhookSecrets(options.secret, context.env) as [string];
  const timeoutSeconds = Number(options.timeout ?? PARLEY_TIMEOUT_SECONDS);
  if (!(timeoutSeconds > 0 && timeoutSeconds <= PARLEY_TIMEOUT_SECONDS)) {
    throw usageError(
      `--timeout must be seconds above 0 and at most ${PARLEY_TIMEOUT_SECONDS}, got "${options.timeout}"`,
    );
  }
  const timeoutMs = Math.round(timeoutSeconds * 1000);
  const deliver = deliverer(url, timeoutMs, context.fetch ?? ((request) => fetch(request)), context.signal);
  const cases = await runBattery(
    async (event, signing) => {
      const answer = await deliver(event, signing);
      // Nothing listening is not a failing receiver: say so once instead of eight times.
      if (answer.status === null && answer.error?.startsWith('no answer: ECONNREFUSED')) {
        throw new ExitError(EXIT.config, `could not reach ${url} (ECONNREFUSED): is your receiver running?`);
      }
      return answer;
    },
    secret,
    timeoutMs,
  );
  const count = (result: DoctorCase['result']) => cases.filter((each) => each.result === result).length;
  const counts = { passed: count('passed'), failed: count('failed'), unchecked: count('unchecked') };
  return { url, ok: counts.failed === 0, timeout_ms: timeoutMs, counts, cases };
}

function checkedUrl(text: string | undefined): string {
  if (!text) throw usageError('missing URL: the receiver to check, e.g. http://127.0.0.1:3000/webhooks');
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {}
  throw usageError(`URL must be an http(s) URL, got "${text}"`);
}

export default defineCommand({
  run: doctor,
  render: renderDoctorReport,
  exitCode: (report) => (report.ok ? EXIT.ok : EXIT.api),
});
