import { EMULATOR_FLAGS, flagHelp } from '@parley/emulator/rules';
import type { OptionSpec } from './_spec';

/**
 * The flags of `parley emulator start`, which passes them to the emulator unparsed: read from the
 * emulator's one flag table (what its `--help` and its parsing read too), less the flags parley
 * already offers after every command (`--json`, passed on as it is).
 */
export function emulatorStartFlags(globalFlags: ReadonlySet<string>): OptionSpec[] {
  return EMULATOR_FLAGS.filter((flag) => !globalFlags.has(`--${flag.name}`)).map((flag) => ({
    flags: [`--${flag.name}`, ...('short' in flag ? [`-${flag.short}`] : [])],
    description: flagHelp(flag),
    takesValue: flag.type === 'string',
    values: 'choices' in flag ? flag.choices : 'path' in flag ? 'files' : undefined,
  }));
}
