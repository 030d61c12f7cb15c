#!/usr/bin/env node
// CI, on the clean checkout before anything is built: `pnpm emulator` must start (building what
// it needs), answer /_emulator/health, `pnpm parley status` (building the CLI) must reach it, and
// the emulator must stop on SIGTERM. A newcomer's first commands.
import { spawn, spawnSync } from 'node:child_process';

const child = spawn('pnpm', ['emulator', '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
const fail = (message) => {
  console.error(`✗ pnpm emulator on a fresh clone: ${message}`);
  child.kill('SIGKILL');
  process.exit(1);
};
const timer = setTimeout(() => fail('no ready line within 120 s'), 120_000);
let output = '';
child.stdout.on('data', async (chunk) => {
  output += chunk;
  const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
  if (!line) return;
  child.stdout.removeAllListeners('data');
  child.removeListener('exit', exitedEarly);
  clearTimeout(timer);
  const { control_url: controlUrl } = JSON.parse(line);
  const health = await fetch(`${controlUrl}/health`).then(
    (response) => response.json(),
    (error) => fail(error.message),
  );
  if (health?.ok !== true) fail(`health answered ${JSON.stringify(health)}`);
  const { base_url: baseUrl, sandbox_key: apiKey } = JSON.parse(line);
  const status = spawnSync('pnpm', ['--silent', 'parley', 'status', '--json'], {
    env: { ...process.env, PARLEY_BASE_URL: baseUrl, PARLEY_API_KEY: apiKey },
    encoding: 'utf8',
  });
  if (status.status !== 0) fail(`pnpm parley status exited ${status.status}: ${status.stderr}`);
  const environment = JSON.parse(status.stdout).environment;
  if (environment !== 'sandbox') fail(`pnpm parley status answered ${status.stdout}`);
  child.once('exit', (code, signal) => {
    console.log(
      `✓ fresh clone: pnpm emulator ready and healthy (version ${health.version}), pnpm parley status ok (${environment}), stopped (${signal ?? code})`,
    );
    process.exit(0);
  });
  child.kill('SIGTERM');
});
function exitedEarly(code) {
  fail(`exited with ${code} before its ready line`);
}
child.once('exit', exitedEarly);
