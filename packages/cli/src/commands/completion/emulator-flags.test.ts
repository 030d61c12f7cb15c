import { ACTIVITY_STATUSES, EMULATOR_FLAGS, flagHelp } from '@parley/emulator/rules';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../_commander';
import { completion } from './index';

const program = () => buildProgram('0.0.0', ['completion'], () => async () => {});
const START = "-n '__fish_seen_subcommand_from emulator; and __fish_seen_subcommand_from start'";

describe('completion of parley emulator start', () => {
  it("offers every flag of the emulator's one table, with its help, its choices and files for a path", async () => {
    const fish = (await completion({ shell: 'fish', program: program() })).split('\n');
    const startLines = fish.filter((line) => line.startsWith(`complete -c parley ${START} -l `));
    const expected = EMULATOR_FLAGS.filter((flag) => flag.name !== 'json').map((flag) => {
      const values = 'choices' in flag ? ` -a '${flag.choices.join(' ')}'` : 'path' in flag ? ' -F' : '';
      const short = 'short' in flag ? ` -s ${flag.short}` : '';
      const help = flagHelp(flag).replaceAll("'", "\\'");
      return `complete -c parley ${START} -l ${flag.name}${short}${flag.type === 'string' ? ' -r' : ''}${values} -d '${help}'`;
    });
    expect(startLines).toEqual(expected);
    expect(expected).toHaveLength(EMULATOR_FLAGS.length - 1);
    // --json is parley's own on every command, passed on to the emulator: offered once, as a global.
    expect(fish.filter((line) => line.includes('-l json'))).toEqual([
      expect.stringMatching(/^complete -c parley -l json -d /),
    ]);
  });

  it('bash offers each flag after emulator start and its choices after it', async () => {
    const bash = await completion({ shell: 'bash', program: program() });
    const words = /^ {4}' emulator start'\) words='([^']*)'/m.exec(bash)?.[1]?.split(' ');
    for (const flag of EMULATOR_FLAGS) {
      expect(words, flag.name).toContain(`--${flag.name}`);
      if ('choices' in flag) {
        expect(bash).toContain(
          `'--${flag.name}') COMPREPLY=($(compgen -W '${flag.choices.join(' ')}' -- "$cur")); return ;;`,
        );
      }
    }
  });

  it("offers the emulator's activity statuses after logs tail --status, the list its console filters on", async () => {
    const bash = await completion({ shell: 'bash', program: program() });
    expect(bash).toContain(
      `'--status') COMPREPLY=($(compgen -W '${ACTIVITY_STATUSES.join(' ')}' -- "$cur")); return ;;`,
    );
    expect(ACTIVITY_STATUSES).toContain('pending');
  });

  it('a shell it does not know is exit 2, also one named like a property of every object', async () => {
    for (const shell of ['powershell', 'toString', 'constructor', '__proto__']) {
      await expect(completion({ shell, program: program() }), shell).rejects.toMatchObject({
        code: 2,
        message: `unknown shell "${shell}": use bash, zsh or fish`,
      });
    }
  });
});
