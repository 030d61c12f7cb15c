import { setFlagsFromString } from 'node:v8';

/**
 * Tunes V8's heap for the emulator's own process (the bin; never a process that imports us).
 * The emulator keeps every message in memory, so much of what it allocates survives: on Node 24,
 * V8 answers by growing the young generation to 128 MB and the old one to several times what is
 * live, which puts a busy emulator at ~300 MB after 100,000 sends. `--optimize-for-size` keeps
 * the young generation at 4 MB (~165 MB after 100,000 sends), but also grows the old generation
 * by the smallest step, so a send burst runs a full collection of every stored message every few
 * hundred milliseconds. Letting the old generation double instead halves those collections for
 * ~205 MB at worst (bench). Flags sizing the young generation directly have no effect once the
 * heap exists. Called before anything sizable is allocated. Kept while `pnpm bench` (section 7)
 * shows it matters: 225 vs 277 MB after 100k sends (0.81), for 11.0 vs 10.0 s of sending (1.10).
 * In-process uses (`parley emulator start`, tests) go without it.
 */
export function tuneV8ForEmulator(): void {
  setFlagsFromString('--optimize-for-size');
  setFlagsFromString('--heap-growing-percent=100');
}
