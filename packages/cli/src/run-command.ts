import type { CommandModule, ParsedInput } from './commands/command-module';
import { createContext } from './context';
import { EXIT, ExitError, isExitError } from './exit-error';
import { plainStyle } from './output/plain-style';
import { terminalSafe, terminalSafeData, terminalSafeJson } from './output/terminal-safe';

/**
 * Runs one command the way the entry needs it: builds the context from the global flags, runs,
 * prints the data (JSON or the human view) or the error, and returns the exit code. Never exits.
 */
export async function runCommand<Options, Data>(
  commandModule: CommandModule<Options, Data>,
  input: ParsedInput,
): Promise<number> {
  const { flags } = input;
  const controller = new AbortController();
  const json = flags.json === true;
  // chalk is loaded only for human output: --json runs start faster without it.
  const style = json
    ? plainStyle()
    : (await import('./output/style')).createStyle({
        color: flags.color !== false,
        stream: process.stdout,
        env: process.env,
      });
  const context = createContext({
    json,
    style,
    input: flags.input !== false,
    signal: controller.signal,
    verbose: flags.verbose === true,
  });
  const stop = () => controller.abort();
  if (commandModule.longRunning) {
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }
  try {
    const options = commandModule.parse
      ? commandModule.parse(input)
      : ({ ...flags, ...input.args } as Options);
    const data = await commandModule.run(options, context);
    if (data === undefined) return EXIT.ok;
    if (context.json) {
      const output = commandModule.json ? commandModule.json(data) : data;
      if (output !== undefined) context.stdout.write(`${terminalSafeJson(output, 2)}\n`);
    } else {
      // The view gets the data with every string made terminal-safe, so it can style freely and
      // never print a server's escape sequence: only a view of the CLI's own text opts out.
      const text = commandModule.render?.(commandModule.ownText ? data : terminalSafeData(data), context);
      if (text) context.stdout.write(`${text}\n`);
    }
    return commandModule.exitCode?.(data) ?? EXIT.ok;
  } catch (error) {
    const exit = asExitError(error);
    if (context.json) context.stdout.write(`${terminalSafeJson(exit.body, 2)}\n`);
    // Messages quote servers, files and arguments; none of the CLI's own has a control character.
    else context.stderr.write(`${context.style.red('Error:')} ${terminalSafe(exit.message)}\n`);
    return exit.code;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

function asExitError(error: unknown): ExitError {
  if (isExitError(error)) return error;
  // @inquirer/prompts rejects with ExitPromptError on Ctrl-C, AbortPromptError on our signal.
  if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')) {
    return new ExitError(EXIT.interrupted, 'cancelled');
  }
  const message = `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  return new ExitError(EXIT.api, message, { error: { code: 'internal_error', message, request_id: null } });
}
