import type { ScenarioReport } from '@parley/emulator';

// XML 1.0 allows tab, LF and CR of the C0 controls, nothing of the others: a name from a file could hold them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g;

const xmlEscape = (text: string) =>
  text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/**
 * The reports as a JUnit XML document, as CI systems read it: a `testsuite` per scenario (its file
 * as `file`), a `testcase` per step named `step N (path): what it did`, a `failure` with the difference.
 */
export function junitXml(reports: readonly ScenarioReport[]): string {
  const failures = reports.reduce((sum, report) => sum + report.failures.length, 0);
  const tests = reports.reduce((sum, report) => sum + report.steps.length, 0);
  const suites = reports.map((report) => {
    const stepFailures = report.steps.filter((step) => step.outcome === 'failed').length;
    // A call failure no expect_error named belongs to its send, which itself ran: one more case.
    const extra = report.failures.filter(
      (failure) => report.steps.find((step) => step.step === failure.step)?.outcome !== 'failed',
    );
    const cases = report.steps.map((step) => {
      const name = xmlEscape(`step ${step.step} (${step.path}): ${step.label}`);
      const head = `    <testcase classname="${xmlEscape(report.name)}" name="${name}"`;
      return step.outcome === 'passed'
        ? `${head}/>`
        : `${head}>\n      <failure message="${xmlEscape(step.difference ?? 'failed')}"/>\n    </testcase>`;
    });
    for (const failure of extra) {
      cases.push(
        `    <testcase classname="${xmlEscape(report.name)}" name="${xmlEscape(`step ${failure.step} (${failure.path}): call outcome`)}">\n      <failure message="${xmlEscape(failure.message)}"/>\n    </testcase>`,
      );
    }
    const file = report.file === null ? '' : ` file="${xmlEscape(report.file)}"`;
    return `  <testsuite name="${xmlEscape(report.name)}"${file} tests="${report.steps.length + extra.length}" failures="${stepFailures + extra.length}" errors="0" skipped="0">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="parley scenario run" tests="${tests}" failures="${failures}">\n${suites.join('\n')}\n</testsuites>\n`;
}
