// Every command's --help, read from the built CLI: examples and the global flags, found by walking
// the command tree as `--help` itself lists it.

import { assertCliBuilt, runCli } from '@parley/test-utils';
import { describe, expect, it } from 'vitest';

const GLOBAL_FLAGS = ['--json', '--profile <name>', '--api-key <key>', '--base-url <url>', '--no-color'];

/** Subcommand names in the "Commands:" section of a help text. */
function subcommands(help: string): string[] {
  const section = help.split('\nCommands:\n')[1]?.split('\n\n')[0] ?? '';
  return [...section.matchAll(/^ {2}([a-z-]+)/gm)]
    .map((match) => match[1]!)
    .filter((name) => name !== 'help');
}

/** Every command with its --help, found by walking the "Commands:" sections from `parley --help`. */
async function helpTexts(
  prefix: string[] = [],
): Promise<{ path: string[]; code: number | null; stdout: string }[]> {
  const { code, stdout } = await runCli([...prefix, '--help'], {});
  const found = [{ path: prefix, code, stdout }];
  // `emulator start` hands --help to the emulator: it has no subcommands of its own.
  if (prefix.join(' ') === 'emulator start') return found;
  for (const name of subcommands(stdout)) found.push(...(await helpTexts([...prefix, name])));
  return found;
}

describe('parley … --help', () => {
  it('every command shows two or three examples and the global flags', async () => {
    assertCliBuilt();
    const helps = await helpTexts();
    expect(helps.map(({ path }) => path.join(' '))).toEqual(
      expect.arrayContaining([
        '',
        'send',
        'emulator clock advance',
        'emulator status',
        'config delete',
        'listen',
      ]),
    );
    for (const { path, code, stdout } of helps) {
      const name = `parley ${path.join(' ')} --help`;
      expect(code, name).toBe(0);
      const examples = stdout.split('\nExamples:\n')[1]?.trimEnd().split('\n') ?? [];
      expect(examples.length, name).toBeGreaterThanOrEqual(2);
      expect(examples.length, name).toBeLessThanOrEqual(3);
      for (const example of examples)
        expect(example, name).toMatch(/^ {2}\$ (SECRET=\$\()?(PARLEY_PROFILE=\w+ )?parley /);
      // The emulator's own flags are its help; parley's global flags do not apply to it.
      if (path.join(' ') === 'emulator start') continue;
      for (const flag of GLOBAL_FLAGS) expect(stdout, name).toContain(flag);
    }
  });

  it('config set --help lists the keys it saves', async () => {
    const { stdout } = await runCli(['config', 'set', '--help'], {});
    expect(stdout).toMatch(
      /^Keys .*\n {2}api_key +--api-key KEY +prl_sandbox_… or prl_live_… followed by 32 letters or digits\n {2}base_url +--base-url URL +http\(s\) URL ending in \/v1/m,
    );
  });
});
