import { setFlagsFromString } from 'node:v8';

/**
 * Tunes V8's heap for the emulator's own process (the bin; never a process that imports us).
 * The emulator keeps every message in memory, so much of what it allocates survives: on Node 24,
 * V8 answers by growing the young generation to its 32 MB cap and the old one to several times
 * what is live, which puts a busy emulator at ~300 MB after 100,000 sends. Flags sizing the young
 * generation directly have no effect once the heap exists, but its growth factor does: at 1 it
 * keeps its start-up size, and letting the old generation double instead of growing in small steps
 * halves the full collections of every stored message during a send burst. Figures of issue 23
 * (100,000 sends, 10 connections, then their status events; same run, loaded 2-core machine):
 *   these two flags                 187 MB, 29.3 s of CPU
 *   none                            299 MB, 28.9 s
 *   `--optimize-for-size` + growth  179 MB, 30.8 s, but GET /v1/status at 0.42 of a bare h3 app's
 *                                   requests per CPU second, against 0.72 with these two (it was
 *                                   the tuning before issue 23)
 * `pnpm bench` weighs the tuning against none (section 7). In-process uses (`parley emulator
 * start`, tests) go without it.
 */
export function tuneV8ForEmulator(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=100');
}
