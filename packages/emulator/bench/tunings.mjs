// The emulator's speed tunings, each against the plain code it replaced, measured in this run
// (issue 11: a tuning stays only where a figure shows it matters; the code cites these rows).
import { execFileSync } from 'node:child_process';
import { randomBytes, randomFillSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const IDS = 200_000;

/** ns per `req_`/`evt_` id: a 4 KiB pool refilled by one CSPRNG call (domain/ids.ts) vs randomBytes(16) per id. */
export function idCost() {
  const pool = Buffer.alloc(16 * 256);
  let offset = pool.length;
  const pooled = () => {
    if (offset === pool.length) {
      randomFillSync(pool);
      offset = 0;
    }
    const hex = pool.toString('hex', offset, offset + 16);
    offset += 16;
    return hex;
  };
  const perCall = () => randomBytes(16).toString('hex');
  const time = (make) => {
    const started = process.hrtime.bigint();
    for (let index = 0; index < IDS; index++) make();
    return Number(process.hrtime.bigint() - started) / IDS;
  };
  // Alternate and keep each side's best: a neighbour's burst should not decide the ratio.
  const runs = { pooled: [], perCall: [] };
  for (let round = 0; round < 3; round++) {
    runs.pooled.push(time(pooled));
    runs.perCall.push(time(perCall));
  }
  return { pooledNs: Math.min(...runs.pooled), perCallNs: Math.min(...runs.perCall) };
}

/**
 * Heap MB that 100,000 messages' `created_at` + `updated_at` strings take, written one second
 * apart at most as a busy emulator does: one string per second shared (domain/ids.ts
 * `formatTimestamp`) vs a new string per record. Measured in a child with `--expose-gc`.
 */
export function timestampHeap() {
  const measure = (mode) =>
    Number(
      execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), mode], {
        encoding: 'utf8',
      }),
    );
  return { sharedMb: measure('shared'), perRecordMb: measure('per-record') };
}

function heapOfTimestamps(mode) {
  let lastSecond = Number.NaN;
  let lastText = '';
  const text = (second) => new Date(second * 1000).toISOString().replace('.000Z', 'Z');
  const shared = (second) => {
    if (second !== lastSecond) {
      lastSecond = second;
      lastText = text(second);
    }
    return lastText;
  };
  const format = mode === 'shared' ? shared : text;
  const start = Math.floor(Date.UTC(2026, 9, 14) / 1000);
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  const kept = new Array(100_000);
  // About 3,000 sends per second: 33 seconds of them.
  for (let index = 0; index < kept.length; index++) {
    const second = start + Math.floor(index / 3_000);
    kept[index] = { created_at: format(second), updated_at: format(second) };
  }
  globalThis.gc();
  const after = process.memoryUsage().heapUsed;
  globalThis.kept = kept;
  return (after - before) / 1024 / 1024;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2]) {
  process.stdout.write(String(heapOfTimestamps(process.argv[2])));
}
