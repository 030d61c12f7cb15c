import { runCli } from '@parley/emulator';
import { describe, expect, it } from 'vitest';
import { EMULATOR_START_FLAGS } from './_emulator-flags';

describe('completion of parley emulator start', () => {
  it("offers exactly the flags of the emulator's own --help, with their choices", async () => {
    const usage: string[] = [];
    expect(await runCli(['--help'], { out: (line) => usage.push(line), err: () => {} })).toBe(0);
    const text = usage.join('\n');
    const documented = [...text.matchAll(/^\s+(?:-\w, )?(--[a-z-]+)/gm)].map((match) => match[1]);
    // --json is a global flag of parley, passed on to the emulator.
    const offered = [...EMULATOR_START_FLAGS.flatMap((option) => option.flags), '--json'];
    expect(offered.filter((flag) => flag.startsWith('--')).sort()).toEqual(documented.sort());
    for (const option of EMULATOR_START_FLAGS) {
      if (Array.isArray(option.values))
        expect(text).toContain(`${option.flags[0]} <${option.values.join('|')}>`);
    }
  });
});
