import { type CommandSpec, flattenCommands, globalOptions } from './_spec';

/** A fish completion script: `parley completion fish > ~/.config/fish/completions/parley.fish`. */
export function fishScript(program: CommandSpec): string {
  const lines = [
    '# parley completion for fish. Install: parley completion fish > ~/.config/fish/completions/parley.fish',
    'complete -c parley -f',
    'function __parley_profiles',
    `    parley config list --json 2>/dev/null | string match -r -g '^\\s*"name": "([^"]*)"'`,
    'end',
  ];
  for (const option of globalOptions(program)) lines.push(`complete -c parley${optionArguments(option)}`);
  for (const command of flattenCommands(program)) {
    const condition = conditionFor(command);
    for (const child of command.commands) {
      lines.push(
        `complete -c parley -n ${quote(condition)} -a ${quote(child.name)} -d ${quote(child.description)}`,
      );
    }
    if (command.argumentValues) {
      lines.push(`complete -c parley -n ${quote(condition)} -a ${quote(valueList(command.argumentValues))}`);
    }
    if (command.path === '') continue;
    for (const option of command.options) {
      lines.push(`complete -c parley -n ${quote(condition)}${optionArguments(option)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Fish condition "this exact command path is on the line, no deeper subcommand yet". */
function conditionFor(command: CommandSpec): string {
  if (command.path === '') return '__fish_use_subcommand';
  const names = command.path.split(' ');
  const seen = names.map((name) => `__fish_seen_subcommand_from ${name}`).join('; and ');
  const deeper = command.commands.map((child) => child.name);
  return deeper.length ? `${seen}; and not __fish_seen_subcommand_from ${deeper.join(' ')}` : seen;
}

function optionArguments(option: CommandSpec['options'][number]): string {
  let text = '';
  for (const flag of option.flags) {
    text += flag.startsWith('--') ? ` -l ${flag.slice(2)}` : ` -s ${flag.slice(1)}`;
  }
  if (option.takesValue) text += ' -r';
  if (option.values === 'files') text += ' -F';
  else if (option.values) text += ` -a ${quote(valueList(option.values))}`;
  return `${text} -d ${quote(option.description)}`;
}

/** Fixed values as fish lists them; saved profiles through a command substitution, run when completing. */
function valueList(values: readonly string[] | 'profiles'): string {
  return values === 'profiles' ? '(__parley_profiles)' : values.join(' ');
}

function quote(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}
