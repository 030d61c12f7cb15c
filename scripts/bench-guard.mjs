// pnpm bench:guard (needs the built packages; .ci/run runs it after pnpm test): a quick run of every
// figure of issue 23 that has a goal, each a ratio to a baseline measured in this run (the median
// of rounds that alternate the two sides or load both at once), against its goal with a 15 % margin
// for a shared machine. Prints a table of
// every row; exits 1 naming each row beyond its limit (a 'max' ratio above goal × 1.15, a 'min' one
// below goal ÷ 1.15). `pnpm bench` prints the full figures with more rounds.
//
// It prints no test-runner summary: CI reads one "Tests:" line for the whole run, and this guard
// counts in the CI status through its exit code only.
const MARGIN = 1.15;
const started = performance.now();

// The SDK benches read their sizes at import: their quick mode, unless set by hand, with the full
// 201 verify rounds, not 41: at 41 the 1 KB ratio spread 0.73-0.81 over five loaded runs, at 101
// 0.78-0.83 (its limit is 0.78).
process.env.BENCH_ROUNDS ??= '201';
process.env.BENCH_LIBRARIES ??= '0';
process.env.BENCH_IMPORT_RUNS ??= '7';

const at = (path) => new URL(`../packages/${path}`, import.meta.url).href;

/** Each package's rows with a goal, in the order printed; a section that throws is a row beyond its limit. */
const sections = [
  [
    '@parley/sdk',
    async () => {
      const [{ verifyRows }, { bundleRows }, { importRows }] = await Promise.all([
        import(at('sdk/bench/verify-webhook.mjs')),
        import(at('sdk/bench/bundle-size.mjs')),
        import(at('sdk/bench/import-time.mjs')),
      ]);
      return [...(await verifyRows({ libraries: false })), ...(await bundleRows()), ...importRows()];
    },
  ],
  [
    '@parley/cli',
    async () => {
      const { measureColdStart } = await import(at('cli/bench/cold-start.ts'));
      // 15 rounds, not 5: at 5, --help read 1.34-1.87 over five loaded runs (its limit is 1.95);
      // at 9, status --json 1.16-1.36 (its limit is 1.32).
      return measureColdStart({ runs: 15, warmup: 1 });
    },
  ],
  [
    // Last: it pins this process to core 0 and its servers to core 1 (bench/_processes.mjs).
    '@parley/emulator',
    async () => {
      const { emulatorSpeedRows, QUICK } = await import(at('emulator/bench/speed-rows.mjs'));
      return emulatorSpeedRows(QUICK);
    },
  ],
];

// Rows still short of their goal (docs/testing.md says why). The guard holds them at today's level,
// with the same margin, so they cannot get worse unseen, and still prints how far from the goal
// they are. `POST /v1/messages` read 0.497-0.528 in the guard on this 2-core machine, and 0.476 in
// a fresh-clone CI run, once every send of the row was a new one (until then most were idempotent
// replays: its load runs reused their Idempotency-Keys); 0.50 in `pnpm bench`.
const HELD = new Map([['emulator POST /v1/messages req/s ÷ bare h3 (50 connections)', 0.47]]);
/** The ratio a row may reach before the guard refuses it: its goal's, or its held level's, with the margin. */
function limitOf(row) {
  const level = HELD.get(row.name) ?? row.goal;
  return row.direction === 'min' ? level / MARGIN : level * MARGIN;
}
/** `ok` at its goal, `near` past it but within the margin, `held` short of its goal but not of today's level, `BEYOND` past its limit. */
function verdictOf(row) {
  const within = (ratio, bound) => (row.direction === 'min' ? ratio >= bound : ratio <= bound);
  if (within(row.ratio, row.goal)) return 'ok';
  if (!within(row.ratio, limitOf(row))) return 'BEYOND';
  return HELD.has(row.name) ? 'held' : 'near';
}
/** A section's rows with a goal; measured again once when a row is beyond its limit, so one noisy round cannot fail CI alone. */
async function measureSection(measure) {
  const rows = (await measure()).filter((row) => row.goal !== null && row.goal !== undefined);
  if (rows.every((row) => verdictOf(row) !== 'BEYOND')) return rows;
  const again = (await measure()).filter((row) => row.goal !== null && row.goal !== undefined);
  // A row counts beyond only if both runs put it there: keep the better of its two ratios.
  return rows.map((row) => {
    const second = again.find((other) => other.name === row.name);
    if (!second) return row;
    const better =
      row.direction === 'min' ? Math.max(row.ratio, second.ratio) : Math.min(row.ratio, second.ratio);
    return { ...row, ratio: better };
  });
}
const table = [];
const beyond = [];
for (const [name, measure] of sections) {
  const sectionStarted = performance.now();
  let rows;
  try {
    rows = await measureSection(measure);
  } catch (error) {
    beyond.push(`${name}: could not be measured (${error instanceof Error ? error.message : error})`);
    continue;
  }
  for (const row of rows) {
    const verdict = verdictOf(row);
    const sign = row.direction === 'min' ? '≥' : '≤';
    table.push({
      package: name,
      figure: row.name,
      ratio: row.ratio.toFixed(3),
      goal: `${sign} ${row.goal}`,
      limit: `${sign} ${limitOf(row).toFixed(3)}`,
      verdict,
    });
    if (verdict === 'BEYOND')
      beyond.push(
        `${name}: ${row.name} is ${row.ratio.toFixed(3)}, limit ${sign} ${limitOf(row).toFixed(3)}`,
      );
  }
  console.log(`${name}: measured in ${((performance.now() - sectionStarted) / 1000).toFixed(1)} s`);
}

console.log(
  `\nSpeed guard (issue 23): ratio to a baseline measured in this run; limit = goal with a ${Math.round((MARGIN - 1) * 100)} % margin`,
);
console.table(table);
console.log(`Measured in ${((performance.now() - started) / 1000).toFixed(1)} s. Full figures: pnpm bench.`);
if (beyond.length > 0) {
  console.error(
    `\nSpeed guard: ${beyond.length === 1 ? 'one row is' : `${beyond.length} rows are`} beyond the limit:`,
  );
  for (const line of beyond) console.error(`  ${line}`);
} else {
  console.log('Speed guard: every row within its limit.');
}
// Explicitly: a load generator's or a server's handle left open must not hold CI.
process.exit(beyond.length > 0 ? 1 : 0);
