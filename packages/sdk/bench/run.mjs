// `pnpm bench` for @parley/sdk: every figure is a ratio to a baseline measured in this run, printed
// with its goal and ok or MISS. Needs the built dist (root `pnpm bench` builds first). Local only;
// stops by itself. Quick mode, for a guard: BENCH_ROUNDS=41 BENCH_LIBRARIES=0 BENCH_IMPORT_RUNS=7.

import { isMain, printRows } from './_rows.mjs';
import { bundleRows } from './bundle-size.mjs';
import { importRows } from './import-time.mjs';
import { verifyRows } from './verify-webhook.mjs';

/**
 * Every row of the SDK's benches, in the order printed.
 * @returns {Promise<import('./_rows.mjs').BenchRow[]>}
 */
export async function sdkRows() {
  return [...(await verifyRows()), ...(await bundleRows()), ...importRows()];
}

if (isMain(import.meta.url)) {
  console.log('\nverifyWebhook side by side with the floor (CPU time, median of alternating rounds)');
  printRows(await verifyRows());
  console.log('\nbrowser bundle as an app imports it (esbuild es2022, minified, gzip 9), KB');
  printRows(await bundleRows());
  console.log('\nimport time, whole process');
  printRows(importRows());
}
