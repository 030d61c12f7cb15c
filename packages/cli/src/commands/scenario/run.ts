import { writeFile } from 'node:fs/promises';
import type { Emulator, Scenario, ScenarioFileError, ScenarioReport } from '@parley/emulator';
import { formatDuration } from '@parley/emulator/rules';
import type { CommandContext } from '../../context';
import { EXIT, ExitError } from '../../exit-error';
import { terminalSafe } from '../../output/terminal-safe';
import { importEmulator } from '../_import-emulator';
import { defineCommand } from '../command-module';
import { junitXml } from './_junit';

/** `parley scenario run FILE… [--junit OUT] [--parallel N] [--json]`. */
export interface ScenarioRunOptions {
  files: string[];
  junit?: string;
  /** How many scenarios run at once (1 to {@link MAX_PARALLEL}); 1 when not given. */
  parallel?: number;
}

/** The most scenarios `--parallel` runs at once: each holds a workspace, a key and its own receivers. */
export const MAX_PARALLEL = 16;

/** What `parley scenario run` found: a report per file, in the order given. */
export interface ScenarioRunResult {
  passed: boolean;
  scenarios: ScenarioReport[];
}

/** What `parley scenario run` says when the optional peer `@parley/emulator` is not installed. */
export const SCENARIO_EMULATOR_MISSING =
  'parley scenario run needs @parley/emulator: npm install -D @parley/emulator';

const isFileError = (error: unknown): error is ScenarioFileError =>
  error instanceof Error && error.name === 'ScenarioFileError';

/**
 * Runs scenario files (docs/scenarios.md) in an in-process emulator, each in a workspace of its
 * own with a frozen clock of its own, one after the other or `parallel` at a time (workspaces
 * share nothing: clocks, keys, rate limits and faults are each scenario's own). Every file is read
 * and checked first: an invalid one is exit 2 naming the file and the path in it, and nothing runs.
 * Reports come in the order the files were given, however they were run.
 */
export async function runScenarios(
  options: ScenarioRunOptions,
  context: CommandContext,
): Promise<ScenarioRunResult> {
  const { createEmulator, loadScenario, runScenario } = await importEmulator(SCENARIO_EMULATOR_MISSING);
  const scenarios: Scenario[] = [];
  const refused: string[] = [];
  const details: { file: string; issues: unknown[] }[] = [];
  for (const file of options.files) {
    try {
      scenarios.push(await loadScenario(file));
    } catch (error) {
      if (isFileError(error)) {
        refused.push(error.message);
        details.push({ file, issues: [...error.issues] });
      } else {
        const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        refused.push(`cannot read ${file}: ${reason}`);
        details.push({
          file,
          issues: [{ path: '(file)', line: null, message: `cannot be read: ${reason}` }],
        });
      }
    }
  }
  if (refused.length > 0) {
    // The issues go to stderr a line each (the error line itself is one line, terminal-safe).
    const lines = refused.join('\n').split('\n').map(terminalSafe);
    if (!context.json) context.stderr.write(`${lines.join('\n')}\n`);
    const message = `${refused.length} of ${options.files.length} scenario file(s) invalid${context.json ? '' : ' (above)'}: nothing ran`;
    throw new ExitError(EXIT.usage, message, {
      error: {
        code: 'invalid_scenario',
        message: lines.join('\n'),
        request_id: null,
        details: { files: details },
      },
    });
  }
  const emulator: Emulator = createEmulator({ clock: 'frozen' });
  try {
    await emulator.ready;
    const reports: ScenarioReport[] = new Array(scenarios.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < scenarios.length) {
        const index = next++;
        reports[index] = await runScenario(scenarios[index]!, { emulator, throwOnFailure: false });
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.parallel ?? 1, scenarios.length) }, worker));
    const result = { passed: reports.every((report) => report.passed), scenarios: reports };
    if (options.junit !== undefined) {
      try {
        await writeFile(options.junit, junitXml(reports));
      } catch (error) {
        throw new ExitError(
          EXIT.config,
          `cannot write ${options.junit}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
      }
    }
    return result;
  } finally {
    await emulator.close();
  }
}

/** The step-by-step report: a line per step, the difference under a failed one, a summary. */
function render(result: ScenarioRunResult, _context: CommandContext): string {
  const lines: string[] = [];
  for (const report of result.scenarios) {
    lines.push(
      `${report.passed ? '✓' : '✗'} ${report.name}${report.file === null ? '' : ` (${report.file})`}`,
    );
    for (const step of report.steps) {
      const elapsed = `+${formatDuration(step.elapsed_ms)}`;
      lines.push(
        `    ${step.outcome === 'passed' ? '✓' : '✗'} ${step.step}. ${step.path} ${elapsed} ${step.label}`,
      );
      if (step.difference !== undefined) lines.push(`        ${step.difference}`);
    }
    for (const failure of report.failures) {
      if (report.steps.find((step) => step.step === failure.step)?.outcome === 'failed') continue;
      lines.push(`    ✗ ${failure.step}. ${failure.path}: ${failure.message}`);
    }
  }
  const failed = result.scenarios.filter((report) => !report.passed).length;
  lines.push(
    `${result.scenarios.length} scenario(s): ${result.scenarios.length - failed} passed, ${failed} failed`,
  );
  return lines.join('\n');
}

/** `--parallel`'s value: a whole number from 1 to {@link MAX_PARALLEL}, else a usage error naming the flag. */
function parallelOf(value: unknown): number {
  const text = String(value);
  const count = /^[0-9]{1,3}$/.test(text) ? Number(text) : Number.NaN;
  if (!(count >= 1 && count <= MAX_PARALLEL)) {
    throw new ExitError(
      EXIT.usage,
      `--parallel takes a whole number from 1 to ${MAX_PARALLEL}, not ${terminalSafe(text.slice(0, 40))}`,
    );
  }
  return count;
}

export default defineCommand({
  run: runScenarios,
  parse: ({ flags, args }) => ({
    files: (args.files as string[] | undefined) ?? [],
    ...(typeof flags.junit === 'string' ? { junit: flags.junit } : {}),
    ...(flags.parallel === undefined ? {} : { parallel: parallelOf(flags.parallel) }),
  }),
  render,
  exitCode: (result) => (result.passed ? EXIT.ok : EXIT.api),
});
