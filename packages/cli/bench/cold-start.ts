// Cold start of the built `parley` as a whole process, as a ratio to `node -e 0` measured in the
// same run (issue 4 targets: --version and --help ≤ 1.7×, status --json ≤ 3×). Runs are
// interleaved so machine noise hits every command alike; the emulator answers on 127.0.0.1.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startEmulatorServer } from '@parley/emulator';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const WARMUP = 3;

if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`pnpm --filter @parley/cli build\` first`);

// Async spawn, never spawnSync: the emulator answering `status` lives in this process's event loop.
function timeRun(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(performance.now() - started);
      else reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`));
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const server = await startEmulatorServer({ port: 0, rateLimits: false });
const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
const apiEnv = { ...base, PARLEY_API_KEY: server.sandboxKey, PARLEY_BASE_URL: server.baseUrl };
const cases: { name: string; args: string[]; env: NodeJS.ProcessEnv; target?: number }[] = [
  { name: 'node -e 0 (baseline)', args: ['-e', '0'], env: base },
  { name: 'parley --version', args: [CLI, '--version'], env: base, target: 1.7 },
  { name: 'parley --help', args: [CLI, '--help'], env: base, target: 1.7 },
  { name: 'parley status --json', args: [CLI, 'status', '--json'], env: apiEnv, target: 3 },
  {
    // The floor of any fetch-based CLI: Node loading its fetch (undici) and making one call.
    name: 'node -e "await fetch(status)" (floor)',
    args: [
      '--input-type=module',
      '-e',
      `await (await fetch(${JSON.stringify(`${server.baseUrl}/status`)}, { headers: { authorization: 'Bearer ${server.sandboxKey}' } })).text()`,
    ],
    env: base,
  },
  {
    name: 'parley status --json, compile cache off',
    args: [CLI, 'status', '--json'],
    env: { ...apiEnv, NODE_DISABLE_COMPILE_CACHE: '1' },
  },
];

try {
  const samples = cases.map(() => [] as number[]);
  for (let round = 0; round < WARMUP + RUNS; round++) {
    // A fresh random order each round: whatever a run leaves behind (the emulator finishing a
    // request, caches) must not always slow down the same next command.
    const order = [...cases.keys()].sort(() => Math.random() - 0.5);
    for (const index of order) {
      const testCase = cases[index]!;
      const elapsed = await timeRun(testCase.args, testCase.env);
      if (round >= WARMUP) samples[index]!.push(elapsed);
    }
  }
  const baseline = median(samples[0]!);
  console.log(`parley CLI cold start: median of ${RUNS} runs each, Node ${process.version}\n`);
  console.log(`${'command'.padEnd(44)}${'median'.padStart(10)}${'ratio'.padStart(9)}${'target'.padStart(9)}`);
  for (const [index, testCase] of cases.entries()) {
    const value = median(samples[index]!);
    const ratio = value / baseline;
    const target = testCase.target ? `≤${testCase.target}× ${ratio <= testCase.target ? 'ok' : 'MISS'}` : '';
    console.log(
      `${testCase.name.padEnd(44)}${`${value.toFixed(1)} ms`.padStart(10)}${`${ratio.toFixed(2)}×`.padStart(9)}  ${target}`,
    );
  }
} finally {
  await server.close();
}
