// Whole-process import time against `node -e 0`, median of RUNS runs each, interleaved.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 21);

function wallTime(args) {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: packageDir, stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed`);
  return performance.now() - started;
}

export function benchImportTime() {
  // Self-referencing imports resolve through `exports` under the node condition, as users get them.
  const subjects = {
    'node -e 0 (baseline)': ['-e', '0'],
    '@parley/sdk/webhooks (ESM)': ['--input-type=module', '-e', "import '@parley/sdk/webhooks'"],
    '@parley/sdk/webhooks (CJS)': ['-e', "require('@parley/sdk/webhooks')"],
    '@parley/sdk (ESM)': ['--input-type=module', '-e', "import '@parley/sdk'"],
    'ky alone (reference)': ['--input-type=module', '-e', "import 'ky'"],
  };
  const samples = Object.fromEntries(Object.keys(subjects).map((name) => [name, []]));
  for (let run = 0; run < RUNS; run++) {
    for (const [name, args] of Object.entries(subjects)) samples[name].push(wallTime(args));
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const baseline = median(samples['node -e 0 (baseline)']);
  return Object.entries(samples).map(([name, values]) => ({
    process: name,
    'median ms': median(values).toFixed(1),
    'ratio to node -e 0': (median(values) / baseline).toFixed(2),
  }));
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(benchImportTime());
