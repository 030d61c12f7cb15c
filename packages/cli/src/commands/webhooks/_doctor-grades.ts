import { WEBHOOK_OUTCOME_HEADER } from '@parley/sdk';
import type { DoctorAnswer } from './_doctor-post';

/** How one case went: `unchecked` when the receiver's answers cannot show it (no outcome header). */
export type CaseResult = 'passed' | 'failed' | 'unchecked';

/** A grade with the reason the report prints after ✓, ✗ or –. */
export interface Grade {
  result: CaseResult;
  reason: string;
}

const is2xx = (status: number | null) => status !== null && status >= 200 && status < 300;
const is4xx = (status: number | null) => status !== null && status >= 400 && status < 500;
const answered = (answer: DoctorAnswer) =>
  `${answer.status}${answer.body ? ` ${answer.body}` : ''}${answer.body_cut ? ' (answer over 64 KiB: read no further)' : ''} in ${answer.duration_ms} ms`;

/** A delivery Parley could send: it must get a 2xx, else Parley retries it for about 20.5 h. */
export function gradeAccepted(answer: DoctorAnswer, hint = ''): Grade {
  if (answer.status === null) return { result: 'failed', reason: answer.error ?? 'no answer' };
  if (is2xx(answer.status)) return { result: 'passed', reason: `accepted: ${answered(answer)}` };
  const advice =
    answer.status >= 300 && answer.status < 400
      ? 'Parley never follows redirects: point the endpoint at the final URL'
      : is4xx(answer.status)
        ? `a delivery signed like Parley's must get 2xx${hint}`
        : 'a delivery signed like Parley’s must get 2xx; Parley retries this one for about 20.5 h';
  return { result: 'failed', reason: `answered ${answered(answer)}: ${advice}` };
}

/**
 * The timed delivery: a valid one, so only a 2xx in time passes, as for Parley. No answer in
 * time is retried; a 3xx is not followed; a 4xx or 5xx is a failed attempt whatever its speed.
 */
export function gradeTimed(answer: DoctorAnswer): Grade {
  if (answer.status === null) {
    return {
      result: 'failed',
      reason: `${answer.error ?? 'no answer'}: Parley counts it as failed and retries; answer first, work later`,
    };
  }
  const accepted = gradeAccepted(answer);
  if (accepted.result === 'failed') return accepted;
  return { result: 'passed', reason: `answered in ${answer.duration_ms} ms (${answer.status})` };
}

/**
 * A forged or replayed delivery: it must get a 4xx. A 2xx means it was trusted; a 5xx that Parley
 * (which never sends it) would retry it, and that the receiver failed where it should refuse.
 */
export function gradeRefused(answer: DoctorAnswer, danger: string): Grade {
  if (answer.status === null) return { result: 'failed', reason: answer.error ?? 'no answer' };
  if (is4xx(answer.status)) return { result: 'passed', reason: `refused: ${answered(answer)}` };
  if (is2xx(answer.status)) return { result: 'failed', reason: `accepted (${answer.status}): ${danger}` };
  return {
    result: 'failed',
    reason: `answered ${answered(answer)}: refuse it with a 4xx (a 5xx says "retry me", and reports a fault that is the sender's)`,
  };
}

/**
 * A delivery that must be acknowledged (2xx) without being processed: the outcome header says
 * which. `skipped` is the outcome wanted, `what` what processing it again would mean.
 */
export function gradeSkipped(answer: DoctorAnswer, skipped: string, what: string): Grade {
  const accepted = gradeAccepted(answer);
  if (accepted.result === 'failed') return accepted;
  if (answer.outcome === skipped) {
    return {
      result: 'passed',
      reason: `acknowledged without processing: ${answer.status}, outcome ${skipped}`,
    };
  }
  if (answer.outcome === 'processed') {
    return { result: 'failed', reason: `processed it (${answer.status}, outcome processed): ${what}` };
  }
  if (answer.outcome === null) {
    return {
      result: 'unchecked',
      reason: `accepted (${answer.status}), but without a ${headerName()} header its answer cannot show whether it was processed`,
    };
  }
  return {
    result: 'unchecked',
    reason: `accepted (${answer.status}, outcome ${answer.outcome}): it did not process the first one either, so this shows nothing`,
  };
}

/** The header's name as the docs write it. */
export function headerName(): string {
  return WEBHOOK_OUTCOME_HEADER.replace(
    /(^|-)([a-z])/g,
    (_, dash: string, letter: string) => dash + letter.toUpperCase(),
  );
}
