import { setFlagsFromString } from 'node:v8';

/**
 * Tunes V8's heap for the emulator's own process (the bin; never a process that imports us).
 * The emulator keeps every message in memory, so much of what it allocates survives: V8 answers
 * by growing the young generation to 128 MB and the old one to 3–4× what is live, which put a
 * busy emulator at ~300 MB after 100,000 sends. `--optimize-for-size` keeps it near 185 MB
 * (bench), at a throughput cost lost in this machine's noise. Called before anything sizable is
 * allocated.
 */
export function tuneV8ForEmulator(): void {
  setFlagsFromString('--optimize-for-size');
}
