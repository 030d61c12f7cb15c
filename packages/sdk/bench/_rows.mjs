// The shape every bench module returns, so `run.mjs` prints them and a CI guard can judge them
// from data: each figure is a ratio to a baseline measured in the same run (or, for sizes, bytes
// per KB: a bundle's size does not depend on the machine).

/**
 * @typedef {object} BenchRow
 * @property {string} name What is measured, e.g. `verifyWebhook 1 KB ÷ floor`.
 * @property {number} value The subject's figure (ops/s, ms, gzip bytes).
 * @property {number} baseline The same figure of the baseline (floor ops/s, `node -e 0` ms, 1024 bytes).
 * @property {number} ratio The judged figure: the median of per-round ratios, or value ÷ baseline.
 * @property {number | null} goal What `ratio` must reach; null for a reference row.
 * @property {'min' | 'max'} direction `min`: ratio ≥ goal; `max`: ratio ≤ goal.
 */

/**
 * A row; `ratio` defaults to value ÷ baseline.
 * @param {Omit<BenchRow, 'ratio'> & { ratio?: number }} row
 * @returns {BenchRow}
 */
export function benchRow({ name, value, baseline, ratio = value / baseline, goal, direction }) {
  return { name, value, baseline, ratio, goal, direction };
}

/** True when the row meets its goal (a reference row always does). */
export function meetsGoal(/** @type {BenchRow} */ row) {
  if (row.goal === null) return true;
  return row.direction === 'min' ? row.ratio >= row.goal : row.ratio <= row.goal;
}

/** The rows as a table: the ratio with two decimals, the goal, and ok or MISS. */
export function printRows(/** @type {BenchRow[]} */ rows) {
  console.table(
    rows.map((row) => ({
      figure: row.name,
      ratio: row.ratio.toFixed(2),
      goal: row.goal === null ? 'reference' : `${row.direction === 'min' ? '≥' : '≤'} ${row.goal}`,
      result: row.goal === null ? '' : meetsGoal(row) ? 'ok' : 'MISS',
    })),
  );
}

/** The middle value (the upper one of an even count); sorts a copy. */
export function median(/** @type {number[]} */ values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** True when `moduleUrl` is the script node was started with. */
export function isMain(/** @type {string} */ moduleUrl) {
  return moduleUrl === `file://${process.argv[1]}`;
}
