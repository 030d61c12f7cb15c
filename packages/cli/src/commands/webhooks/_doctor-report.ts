import type { CommandContext } from '../../context';
import { docsLink } from '../../help-examples';
import { formatSeconds } from './_doctor-post';
import type { DoctorReport } from './doctor';

// Why a case can go unchecked, and how to make it checkable.
const DOCTOR_GUIDE = docsLink('testing-your-app.md', 'grade-your-receiver-parley-webhooks-doctor');

/**
 * The human report: one line per case with ✓ (passed), ✗ (failed) or – (its answers cannot show
 * it), what was sent and why it passed or failed, then the counts.
 */
export function renderDoctorReport(report: DoctorReport, { style }: CommandContext): string {
  const marks = { passed: style.green('✓'), failed: style.red('✗'), unchecked: style.yellow('–') };
  const width = Math.max(...report.cases.map((each) => each.title.length));
  const lines = report.cases.map(
    (each) => `${marks[each.result]} ${each.title.padEnd(width)}  ${each.reason}`,
  );
  const { passed, failed, unchecked } = report.counts;
  const summary = [`${passed} passed`, `${failed} failed`];
  if (unchecked > 0) summary.push(`${unchecked} not checked (see ${DOCTOR_GUIDE})`);
  return [
    `Webhook doctor: ${report.url} (answers awaited ${formatSeconds(report.timeout_ms)})`,
    ...lines,
    (failed > 0 ? style.red : style.green)(summary.join(', ')),
  ].join('\n');
}
