import { type CommandSpec, flattenCommands, globalOptions, type OptionSpec } from './_spec';

/**
 * A bash completion script: subcommands by position, flags per command, values after flags that
 * take fixed values, files after file flags.
 */
export function bashScript(program: CommandSpec): string {
  const commands = flattenCommands(program);
  const globals = globalOptions(program);
  const subcommandPaths = commands
    .filter((command) => command.path !== '')
    .map((command) => ` ${command.path}`);
  const valueCases = commands.flatMap((command) => command.options).filter((option) => option.takesValue);
  return `# parley completion for bash. Install: parley completion bash >> ~/.bashrc
_parley_profiles() {
  parley config list --json 2>/dev/null | sed -n 's/^ *"name": "\\([^"]*\\)".*/\\1/p'
}
_parley() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" path="" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case "$path $word" in
      ${subcommandPaths.map(quote).join('|')}) path="$path $word" ;;
    esac
  done
  case "$prev" in
${unique(valueCases.map((option) => `    ${option.flags.map(quote).join('|')}) ${valueReply(option)}; return ;;`)).join('\n')}
  esac
  local words=""
  case "$path" in
${commands.map((command) => `    ${quote(command.path === '' ? '' : ` ${command.path}`)}) words=${quote(wordsOf(command, command.path === '' ? [] : globals))}${command.argumentValues === 'profiles' ? '" $(_parley_profiles)"' : ''} ;;`).join('\n')}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _parley parley
`;
}

function wordsOf(command: CommandSpec, globals: OptionSpec[]): string {
  return [
    ...command.commands.map((child) => child.name),
    ...(Array.isArray(command.argumentValues) ? command.argumentValues : []),
    ...command.options
      .concat(globals)
      .flatMap((option) => option.flags.filter((flag) => flag.startsWith('--'))),
  ].join(' ');
}

function valueReply(option: OptionSpec): string {
  if (option.values === undefined) return 'COMPREPLY=()';
  if (option.values === 'files') return 'COMPREPLY=($(compgen -f -- "$cur"))';
  if (option.values === 'profiles') return 'COMPREPLY=($(compgen -W "$(_parley_profiles)" -- "$cur"))';
  return `COMPREPLY=($(compgen -W ${quote(option.values.join(' '))} -- "$cur"))`;
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function unique(lines: string[]): string[] {
  return [...new Set(lines)];
}
