// node bench/compare-builds.mjs OTHER_BIN [ROUNDS]: this checkout's built emulator against another
// build (another commit's packages/emulator/dist/bin.js, e.g. from a git worktree), for a change
// that must not cost speed (issue 11). Both servers run at once and the load alternates between
// them round by round, so a neighbour's burst on a shared machine falls on both sides alike; each
// figure is the median of the rounds. Everything stays on 127.0.0.1.
import { fileURLToPath } from 'node:url';
import { median, startServer, stop } from './_processes.mjs';
import { rssOf, sendMany } from './memory.mjs';
import { load } from './throughput.mjs';

const OURS = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const [theirs, roundsText = '5'] = process.argv.slice(2);
if (!theirs) {
  console.error('usage: node bench/compare-builds.mjs OTHER_BUILD/dist/bin.js [ROUNDS]');
  process.exit(2);
}
const ROUNDS = Number(roundsText);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const FLAGS = ['--json', '--port', '0', '--rate-limits', 'off'];
const rows = [];
const row = (measure, ours, other) =>
  rows.push({ measure, 'this build': ours, 'other build': other, ratio: (ours / other).toFixed(2) });

// 1. Throughput: both servers up, rounds alternate which one goes first.
const servers = [await startServer([OURS, ...FLAGS]), await startServer([theirs, ...FLAGS])];
for (const method of ['GET', 'POST']) {
  const runs = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const side of order) {
      const { base_url: baseUrl, sandbox_key: key } = servers[side].ready;
      runs[side].push(await load({ baseUrl, key, method, seconds: SECONDS }));
    }
  }
  const name = method === 'GET' ? 'GET /v1/status' : 'POST /v1/messages';
  const rps = runs.map((side) => median(side.map((run) => run.rps)));
  const p99 = runs.map((side) => median(side.map((run) => run.p99)));
  row(`${name} req/s, median of ${ROUNDS}`, Math.round(rps[0]), Math.round(rps[1]));
  row(`${name} p99 ms, median of ${ROUNDS}`, p99[0], p99[1]);
}
await Promise.all(servers.map(({ child }) => stop(child)));

// 2. Start to first answer, alternating.
async function firstAnswer(bin) {
  const { child, ready, started } = await startServer([bin, ...FLAGS]);
  const response = await fetch(`${ready.base_url}/status`, {
    headers: { authorization: `Bearer ${ready.sandbox_key}` },
  });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  await stop(child);
  return elapsed;
}
const starts = [[], []];
for (let round = 0; round < ROUNDS * 2; round++) {
  starts[0].push(await firstAnswer(OURS));
  starts[1].push(await firstAnswer(theirs));
}
row(
  `start → first answer ms, median of ${ROUNDS * 2}`,
  Math.round(median(starts[0])),
  Math.round(median(starts[1])),
);

// 3. Memory after the same 50,000 sends, one build at a time.
const AMOUNT = 50_000;
const rss = [];
for (const bin of [OURS, theirs]) {
  const { child, ready } = await startServer([bin, ...FLAGS, '--clock', 'frozen']);
  await sendMany({ baseUrl: ready.base_url, key: ready.sandbox_key, amount: AMOUNT });
  rss.push(rssOf(child.pid));
  await stop(child);
}
row(
  `RSS after ${AMOUNT.toLocaleString('en')} sends, MB`,
  Math.round(rss[0] / 2 ** 20),
  Math.round(rss[1] / 2 ** 20),
);

console.log(`\nthis build (${OURS}) against ${theirs}; ratio = this ÷ other\n`);
console.table(rows);
