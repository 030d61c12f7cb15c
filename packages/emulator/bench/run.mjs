// pnpm bench (after pnpm build): the emulator against baselines measured in this same run.
// Servers run in child processes, load is generated here; everything stays on 127.0.0.1.
import { fileURLToPath } from 'node:url';
import { median, pinnedCores, startServer, stop } from './_processes.mjs';
import { bareFanOut, emulatorFanOut } from './fan-out.mjs';
import { httpLayerRows } from './http-layer.mjs';
import { rssOf, sendMany } from './memory.mjs';
import { sandboxPerTest } from './sandbox-per-test.mjs';
import { emulatorSpeedRows, FULL, printSpeedRows } from './speed-rows.mjs';
import { idCost, timestampHeap } from './tunings.mjs';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const BARE = fileURLToPath(new URL('./bare-h3-server.mjs', import.meta.url));
const UNTUNED = fileURLToPath(new URL('./untuned-emulator.mjs', import.meta.url));
const rows = [];
const row = (measure, emulator, baseline, ratio, target = '') =>
  rows.push({ measure, emulator, baseline, ratio, target });
const fixed = (value, digits = 0) => value.toFixed(digits);

async function firstAnswer(args, env) {
  const { child, ready, started } = await startServer(args, env);
  const response = await fetch(`${ready.base_url}/status`, {
    headers: { authorization: `Bearer ${ready.sandbox_key ?? 'none'}` },
  });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  await stop(child);
  return elapsed;
}

// 1. The rows of issue 23, each a ratio to its baseline with its goal (speed-rows.mjs): throughput
// (50 connections, judged per CPU second of each server), cold start, the fault table.
const seconds = process.env.BENCH_SECONDS ? { seconds: Number(process.env.BENCH_SECONDS) } : {};
const speed = await emulatorSpeedRows({ ...FULL, ...seconds });

const emulator = await startServer([BIN, '--json', '--port', '0', '--rate-limits', 'off']);
const { base_url: baseUrl, sandbox_key: key, control_url: controlUrl } = emulator.ready;
// 2. Fan-out: 10 endpoints × 200 events, against plain fetch POSTs of the same count.
const fanOut = await emulatorFanOut({ baseUrl, controlUrl, key, endpoints: 10, events: 200 });
await stop(emulator.child);
const bareFan = await bareFanOut(fanOut.delivered);
row(
  'fan-out events delivered/s',
  fixed(fanOut.perSecond),
  fixed(bareFan.perSecond),
  fixed(fanOut.perSecond / bareFan.perSecond, 2),
);

// 3. Start to first answer, median of 5, against bare h3 behind node:http.
const ourStarts = [];
const bareStarts = [];
for (let round = 0; round < 5; round++) {
  ourStarts.push(await firstAnswer([BIN, '--json', '--port', '0']));
  bareStarts.push(await firstAnswer([BARE]));
}
const ourStart = median(ourStarts);
const bareStart = median(bareStarts);
row('start → first answer ms', fixed(ourStart), fixed(bareStart), fixed(ourStart / bareStart, 2), '≤ 1.50');

// 4. Memory: RSS of the emulator process after 100,000 accepted messages and all their status
// events (frozen clock moved 10 s), against the bare h3 process after the same 100,000 POSTs.
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100_000);
const MEMORY_FLAGS = ['--json', '--port', '0', '--rate-limits', 'off', '--clock', 'frozen'];
const memoryRun = await startServer([BIN, ...MEMORY_FLAGS]);
const tunedStarted = performance.now();
const sentForMemory = await sendMany({
  baseUrl: memoryRun.ready.base_url,
  key: memoryRun.ready.sandbox_key,
  amount: MESSAGES,
});
const tunedSendSeconds = (performance.now() - tunedStarted) / 1000;
await fetch(`${memoryRun.ready.control_url}/clock/advance`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: '{"ms":10000}',
});
const events = await (await fetch(`${memoryRun.ready.control_url}/messages?limit=1`)).json();
// 5. Message history with every message in state: a page of the newest (what the console polls)
// against the cheapest control call of the same process. It pages from an index, never a scan.
const timed = async (path) => {
  const samples = [];
  for (let run = 0; run < 31; run++) {
    const started = performance.now();
    await (await fetch(`${memoryRun.ready.control_url}${path}`)).arrayBuffer();
    samples.push(performance.now() - started);
  }
  return median(samples);
};
const historyMs = await timed('/messages?limit=20');
const healthMs = await timed('/health');
row(
  `GET /_emulator/messages at ${MESSAGES / 1000}k messages, median ms`,
  fixed(historyMs, 2),
  fixed(healthMs, 2),
  fixed(historyMs / healthMs, 2),
  'no scan (was 51 ms at 80k)',
);
const ourRss = rssOf(memoryRun.child.pid);
await stop(memoryRun.child);
// The same sends without the bin's V8 flags (section 7 weighs that tuning).
const untunedRun = await startServer([UNTUNED, ...MEMORY_FLAGS]);
const untunedStarted = performance.now();
await sendMany({ baseUrl: untunedRun.ready.base_url, key: untunedRun.ready.sandbox_key, amount: MESSAGES });
const untunedSendSeconds = (performance.now() - untunedStarted) / 1000;
const untunedRss = rssOf(untunedRun.child.pid);
await stop(untunedRun.child);
const bareMemory = await startServer([BARE]);
await sendMany({ baseUrl: bareMemory.ready.base_url, key: 'none', amount: MESSAGES });
const bareRss = rssOf(bareMemory.child.pid);
await stop(bareMemory.child);
const mb = (bytes) => bytes / 1024 / 1024;
row(
  `RSS after ${MESSAGES / 1000}k messages + events, MB`,
  fixed(mb(ourRss)),
  fixed(mb(bareRss)),
  fixed(ourRss / bareRss, 2),
  '< 300 MB',
);
if (sentForMemory.accepted !== MESSAGES || events.data[0]?.status !== 'delivered') {
  row(
    'memory run check',
    `${sentForMemory.accepted} accepted, last ${events.data[0]?.status}`,
    '-',
    '-',
    'all delivered',
  );
}

// 6. A sandbox per test (@parley/emulator/vitest): a test's own workspace, application, key, frozen
// clock and SDK client in the worker's in-process emulator, after the first, against a bare client.
const sandboxes = await sandboxPerTest();
row(
  `sandbox per test ready, median of ${sandboxes.rounds} ms`,
  fixed(sandboxes.readyMs, 3),
  fixed(sandboxes.bareClientMs, 4),
  fixed(sandboxes.readyMs / sandboxes.bareClientMs, 1),
  '< 5 ms',
);
row(
  `sandbox per test ready, last 100 of ${sandboxes.rounds}, median ms`,
  fixed(sandboxes.readyLateMs, 3),
  fixed(sandboxes.bareClientMs, 4),
  fixed(sandboxes.readyLateMs / sandboxes.bareClientMs, 1),
  '< 5 ms',
);
row('sandbox per test dispose, median ms', fixed(sandboxes.disposeMs, 3), '-', '-');

// 7. The speed tunings kept in the code, each against the plain code it replaced (issue 11).
const ids = idCost();
row(
  'one req_/evt_ id, ns (pool vs randomBytes(16) per id)',
  fixed(ids.pooledNs),
  fixed(ids.perCallNs),
  fixed(ids.pooledNs / ids.perCallNs, 2),
  'tuning kept while < 0.50',
);
const stamps = timestampHeap();
row(
  'heap of 100k messages’ timestamps, MB (shared per second vs per record)',
  fixed(stamps.sharedMb, 1),
  fixed(stamps.perRecordMb, 1),
  fixed(stamps.sharedMb / stamps.perRecordMb, 2),
  'tuning kept while < 0.50',
);

row(
  `RSS after ${MESSAGES / 1000}k sends, MB (bin's V8 flags vs none)`,
  fixed(mb(ourRss)),
  fixed(mb(untunedRss)),
  fixed(ourRss / untunedRss, 2),
  'tuning kept while < 0.85',
);
row(
  `${MESSAGES / 1000}k sends, s (bin's V8 flags vs none)`,
  fixed(tunedSendSeconds, 1),
  fixed(untunedSendSeconds, 1),
  fixed(tunedSendSeconds / untunedSendSeconds, 2),
  'report only',
);

// 8. References: the emulator, the bare h3 baseline and the same routes on node:http alone, in the
// same rounds: how much of a request is the framework's (docs/testing.md, issue 23's fourth round).
for (const layer of await httpLayerRows(seconds.seconds ? { seconds: seconds.seconds } : {})) {
  const path = layer.method === 'GET' ? 'GET /v1/status' : 'POST /v1/messages';
  row(
    `${path} bare node:http ÷ bare h3, req per CPU s`,
    fixed(layer.node),
    fixed(layer.h3),
    fixed(layer.nodeToH3, 2),
    'report only',
  );
  row(
    `${path} emulator ÷ bare node:http (÷ bare h3 ${fixed(layer.emulatorToH3, 2)})`,
    fixed(layer.emulator),
    fixed(layer.node),
    fixed(layer.emulatorToNode, 2),
    'report only',
  );
}

console.log(
  `\n@parley/emulator benchmarks (ratio = emulator ÷ baseline measured in this run; ${pinnedCores ? 'servers on core 1, load on core 0' : 'cores shared'})\n`,
);
console.log('Issue 23 rows (medians of alternating rounds):');
printSpeedRows(speed);
console.table(rows);
console.log(
  "Baselines: bare h3 2 behind node:http answering JSON of the same size (throughput, start, RSS after the same POSTs); plain fetch POSTs to the same receiver (fan-out); a bare new Parley() with an in-process fetch (sandbox per test); the same two routes on node:http alone (section 8, h3's own share of a request).",
);
