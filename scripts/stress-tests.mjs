#!/usr/bin/env node
// `pnpm test:stress`: runs the unit suite (`vitest run`) and the hardening suite several times while
// busy loops take every core, as a laptop busy with other work does. A test that needs an idle
// machine fails here; every round must pass. Prints one line per round and the tests that failed.
//   node scripts/stress-tests.mjs [--rounds N] [--busy N] [--suite unit|hardening|all] [-- vitest args…]
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { parseArgs, stripVTControlCharacters } from 'node:util';

const { values, positionals } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    busy: { type: 'string', default: String(availableParallelism() * 2) },
    suite: { type: 'string', default: 'all' },
  },
  allowPositionals: true,
});
const rounds = Number(values.rounds);
const busy = Number(values.busy);
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(busy) || busy < 0) {
  console.error('stress-tests: --rounds needs an integer ≥ 1 and --busy an integer ≥ 0');
  process.exit(2);
}
const suites = {
  unit: ['vitest', ['run', ...positionals]],
  hardening: ['vitest', ['run', '--config', 'vitest.hardening.config.ts', ...positionals]],
};
const chosen = values.suite === 'all' ? Object.keys(suites) : [values.suite];
if (!chosen.every((name) => name in suites)) {
  console.error(`stress-tests: --suite is unit, hardening or all, not ${values.suite}`);
  process.exit(2);
}

// Busy loops in their own processes (not worker threads of this one), so the scheduler treats
// them as the other programs of a busy machine.
const loops = Array.from({ length: busy }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stopLoops = () => {
  for (const loop of loops) loop.kill('SIGKILL');
};
process.on('exit', stopLoops);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

/** Runs one suite with the package's own vitest; resolves to its exit code and the failing tests' lines. */
function runSuite(name) {
  const [command, args] = suites[name];
  return new Promise((resolve) => {
    const child = spawn('pnpm', ['exec', command, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // No JSON report: CI's reports are not overwritten by a stress run.
      env: { ...process.env, CI: '', FORCE_COLOR: '0', NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => {
      output = stripVTControlCharacters(output);
      const failures = output
        .split('\n')
        .filter((line) => /^\s*(×|✗|FAIL)\s/.test(line) || /Unhandled/.test(line));
      const summary = output.split('\n').find((line) => /^\s*Tests\s+\d/.test(line.trim())) ?? '';
      resolve({ code, failures: [...new Set(failures.map((line) => line.trim()))], summary: summary.trim() });
    });
  });
}

let failedRounds = 0;
console.log(
  `stress: ${rounds} round(s) of ${chosen.join(' + ')} with ${busy} busy loop(s) on ${availableParallelism()} core(s)`,
);
for (let round = 1; round <= rounds; round++) {
  for (const name of chosen) {
    const started = performance.now();
    const { code, failures, summary } = await runSuite(name);
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    console.log(`round ${round} ${name}: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s — ${summary}`);
    for (const failure of failures) console.log(`  ${failure}`);
    if (code !== 0) failedRounds++;
  }
}
console.log(failedRounds === 0 ? 'stress: every round passed' : `stress: ${failedRounds} run(s) failed`);
process.exit(failedRounds === 0 ? 0 : 1);
