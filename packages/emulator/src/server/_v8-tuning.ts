import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * Tunes V8's heap for the emulator's own process (the bin; never a process that imports us).
 * The emulator keeps every message in memory, so much of what it allocates survives: on Node 24,
 * V8 answers by growing the young generation to its 32 MB cap and the old one to several times
 * what is live, which puts a busy emulator at ~300 MB after 100,000 sends. Flags sizing the young
 * generation directly have no effect once the heap exists, but its growth factor does: at 1 it
 * stops growing. Letting the old generation double instead of growing in small steps halves the
 * full collections of every stored message during a send burst.
 *
 * The young generation is let grow to {@link YOUNG_GENERATION_BYTES}, then stopped: kept at its
 * 2 MB start-up size, every object a call keeps for a while (its activity item, its HAR exchange)
 * outlived two scavenges and was copied into the old generation, which cost a send more than
 * building the message. Figures of issue 23 (2-core machine, loaded; requests per CPU second
 * against the start-up size, median of 15 alternating rounds, two runs; RSS after 50,000 sends):
 *   start-up size (before)        1.00 GET, 1.00 POST, 155-164 MB
 *   grown to 16 MB, then stopped   1.03-1.04 GET, 1.03-1.10 POST, 160-162 MB
 *   grown to its 32 MB cap         1.12 GET, 1.05 POST, 240 MB
 * Earlier (100,000 sends): no tuning at all 299 MB; `--optimize-for-size` 179 MB but GET /v1/status
 * at 0.42 of a bare h3 app. `pnpm bench` weighs the tuning against none (section 7). In-process
 * uses (`parley emulator start`, tests) go without it.
 */
export function tuneV8ForEmulator(): void {
  setFlagsFromString('--heap-growing-percent=100');
  // Checked after collections only: an idle emulator does no work for it. The size is read when
  // the observer's batch arrives, so it may have grown one step past the bound by then.
  const observer = new PerformanceObserver(() => {
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (young === undefined || young.space_size >= YOUNG_GENERATION_BYTES) {
      setFlagsFromString('--semi-space-growth-factor=1');
      observer.disconnect();
    }
  });
  observer.observe({ entryTypes: ['gc'] });
}

/** How large the young generation may grow (semi-spaces included) before it stops. */
export const YOUNG_GENERATION_BYTES = 16 * 1024 * 1024;
