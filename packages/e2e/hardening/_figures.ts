import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where each hardening test appends its row; `scripts/write-reliability-figures.mjs` renders them. */
export const FIGURES_FILE = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../../node_modules/.cache/hardening-figures.ndjson',
);

/** One row of docs/reliability.md's table. */
export interface ReliabilityFigure {
  /** The test, as the table names it (stable: a later run replaces the row of the same name). */
  test: string;
  /** The load it applied, e.g. "10,000 fuzzed requests". */
  load: string;
  /** What it proved, in one sentence. */
  proved: string;
  /** The measured figures of this run, e.g. "0 × 5xx, p99 4 ms, RSS 180 MB". */
  figures: string;
}

/** Records a row for the reliability table (called once a test's assertions have passed). */
export function recordFigure(figure: ReliabilityFigure): void {
  mkdirSync(dirname(FIGURES_FILE), { recursive: true });
  appendFileSync(FIGURES_FILE, `${JSON.stringify({ ...figure, at: new Date().toISOString() })}\n`);
}
