import type { Command } from 'commander';

/** An option as completion needs it. */
export interface OptionSpec {
  /** `--to`, `-h`… every spelling. */
  flags: string[];
  description: string;
  takesValue: boolean;
  /** Fixed values to offer after the flag; `files` for a path; `profiles` for saved profile names. */
  values: readonly string[] | 'files' | 'profiles' | undefined;
}

/** A command (or the program) as completion needs it. */
export interface CommandSpec {
  name: string;
  description: string;
  /** Space-separated path from the program, e.g. `messages get`; empty for the program. */
  path: string;
  options: OptionSpec[];
  /** Values to offer for the first positional argument; `profiles` for saved profile names. */
  argumentValues: readonly string[] | 'profiles' | undefined;
  commands: CommandSpec[];
}

/** Values commander does not know, keyed by `path <argument>` or `path --flag` (e.g. event types). */
export type ValueHints = Record<string, readonly string[] | 'files' | 'profiles'>;

/** Options commander does not parse itself, keyed by command path (`emulator start` passes its flags on). */
export type ExtraOptions = Record<string, readonly OptionSpec[]>;

/** Reads the commander tree, so completion never drifts from the real commands. */
export function describeCommand(
  command: Command,
  hints: ValueHints,
  extraOptions: ExtraOptions = {},
  parentPath = '',
): CommandSpec {
  const path = parentPath === '' && !command.parent ? '' : `${parentPath} ${command.name()}`.trim();
  const options: OptionSpec[] = command.options
    .filter((option) => !option.hidden)
    .map((option) => ({
      flags: [option.long, option.short].filter((flag): flag is string => Boolean(flag)),
      description: option.description,
      takesValue: option.required || option.optional,
      values: option.argChoices ?? hints[`${path} ${option.long}`.trim()] ?? hints[option.long ?? ''],
    }));
  options.push(...(extraOptions[path] ?? []));
  const helpOption = command
    .createHelp()
    .visibleOptions(command)
    .find((option) => option.long === '--help');
  if (helpOption && !options.some((option) => option.flags.includes('--help'))) {
    options.push({
      flags: ['--help', '-h'],
      description: helpOption.description,
      takesValue: false,
      values: undefined,
    });
  }
  const firstArgument = command.registeredArguments[0];
  const argumentHint = firstArgument ? hints[`${path} <${firstArgument.name()}>`] : undefined;
  return {
    name: command.name(),
    description: command.description(),
    path,
    options,
    argumentValues: firstArgument?.argChoices ?? (argumentHint === 'files' ? undefined : argumentHint),
    commands: command.commands.map((child) => describeCommand(child, hints, extraOptions, path)),
  };
}

/** Every command of the tree, program first, depth first. */
export function flattenCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.commands.flatMap(flattenCommands)];
}

/** Options of the program that are valid after any subcommand too. */
export function globalOptions(program: CommandSpec): OptionSpec[] {
  return program.options.filter(
    (option) => !option.flags.includes('--version') && !option.flags.includes('--help'),
  );
}
