import type { CommandContext } from '../../context';
import { formatSeconds } from './_doctor-post';
import type { DoctorReport } from './doctor';

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
  if (unchecked > 0) summary.push(`${unchecked} not checked (see docs/testing-your-app.md)`);
  return [
    `Webhook doctor: ${report.url} (answers awaited ${formatSeconds(report.timeout_ms)})`,
    ...lines,
    (failed > 0 ? style.red : style.green)(summary.join(', ')),
  ].join('\n');
}
