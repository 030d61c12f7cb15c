import { type CommandSpec, flattenCommands, globalOptions, type OptionSpec } from './_spec';

// biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh expansion (one word per line of output), not a JS template
const PROFILE_WORDS = '${(f)"$(_parley_profiles)"}';

/**
 * A zsh completion script with descriptions. Works both from `fpath` (as `_parley`) and with
 * `source <(parley completion zsh)`.
 */
export function zshScript(program: CommandSpec): string {
  const commands = flattenCommands(program);
  const globals = globalOptions(program);
  const subcommandPaths = commands
    .filter((command) => command.path !== '')
    .map((command) => ` ${command.path}`);
  const valueOptions = commands.flatMap((command) => command.options).filter((option) => option.takesValue);
  return `#compdef parley
# parley completion for zsh. Install: parley completion zsh > "\${fpath[1]}/_parley"
_parley_profiles() {
  parley config list --json 2>/dev/null | sed -n 's/^ *"name": "\\([^"]*\\)".*/\\1/p'
}
_parley() {
  # Not \`path\`: in zsh that is PATH, and _parley_profiles runs parley.
  local command_path="" word i
  for ((i = 2; i < CURRENT; i++)); do
    word="\${words[i]}"
    case "$command_path $word" in
      (${subcommandPaths.map(quote).join('|')}) command_path="$command_path $word" ;;
    esac
  done
  case "\${words[CURRENT-1]}" in
${unique(valueOptions.map((option) => `    (${option.flags.map(quote).join('|')}) ${valueReply(option)}; return ;;`)).join('\n')}
  esac
  local -a items
  case "$command_path" in
${commands.map((command) => `    (${quote(command.path === '' ? '' : ` ${command.path}`)}) items=(${items(command, command.path === '' ? [] : globals)}${command.argumentValues === 'profiles' ? ` ${PROFILE_WORDS}` : ''}) ;;`).join('\n')}
  esac
  _describe -t commands 'parley' items
}
if [ "$funcstack[1]" = "_parley" ]; then
  _parley "$@"
else
  compdef _parley parley
fi
`;
}

function items(command: CommandSpec, globals: OptionSpec[]): string {
  const entries = [
    ...command.commands.map((child) => [child.name, child.description] as const),
    ...(Array.isArray(command.argumentValues) ? command.argumentValues : []).map(
      (value) => [value, ''] as const,
    ),
    ...command.options
      .concat(globals)
      .flatMap((option) =>
        option.flags
          .filter((flag) => flag.startsWith('--'))
          .map((flag) => [flag, option.description] as const),
      ),
  ];
  return entries
    .map(([name, description]) => quote(`${name.replaceAll(':', '\\:')}:${description}`))
    .join(' ');
}

function valueReply(option: OptionSpec): string {
  if (option.values === undefined) return '_message value';
  if (option.values === 'files') return '_files';
  if (option.values === 'profiles') return `compadd -- ${PROFILE_WORDS}`;
  return `compadd -- ${option.values.map(quote).join(' ')}`;
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function unique(lines: string[]): string[] {
  return [...new Set(lines)];
}
