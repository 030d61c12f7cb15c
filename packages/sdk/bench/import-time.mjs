// Whole-process import time against `node -e 0`, median of BENCH_IMPORT_RUNS (21) runs each,
// interleaved. Self-referencing imports resolve through `exports` under the node condition, as
// users get them. Needs the built dist.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchRow, isMain, median, printRows } from './_rows.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 21);

function wallTime(args) {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: packageDir, stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed`);
  return performance.now() - started;
}

/** The figures as rows: the webhooks entry ÷ `node -e 0` ≤ 1.3, the rest as references. */
export function importRows() {
  const baseline = ['-e', '0'];
  const subjects = [
    ['@parley/sdk/webhooks (ESM)', ['--input-type=module', '-e', "import '@parley/sdk/webhooks'"], 1.3],
    ['@parley/sdk/webhooks (CJS)', ['-e', "require('@parley/sdk/webhooks')"], null],
    ['@parley/sdk (ESM)', ['--input-type=module', '-e', "import '@parley/sdk'"], null],
  ];
  const baselineTimes = [];
  const times = subjects.map(() => []);
  for (let run = 0; run < RUNS; run++) {
    baselineTimes.push(wallTime(baseline));
    for (const [index, [, args]] of subjects.entries()) times[index].push(wallTime(args));
  }
  return subjects.map(([name, , goal], index) =>
    benchRow({
      name: `import ${name} ÷ node -e 0`,
      value: median(times[index]),
      baseline: median(baselineTimes),
      goal,
      direction: 'max',
    }),
  );
}

if (isMain(import.meta.url)) printRows(importRows());
