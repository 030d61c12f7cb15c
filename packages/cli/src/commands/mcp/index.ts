import type { CommandContext } from '../../context';
import { EXIT } from '../../exit-error';
import { defineCommand } from '../command-module';

/** `parley mcp` flags, with the global ones. */
export interface McpCommandOptions {
  apiKey?: string;
  baseUrl?: string;
  profile?: string;
  allowLive?: boolean;
  /** The CLI's version, shown to the client as the server's. */
  version?: string;
}

/** How `parley mcp` ended: see {@link StdioEnd}. */
export interface McpEnd {
  end: 'drained' | 'interrupted' | 'closed';
}

/**
 * `parley mcp`: serves the API and the emulator as MCP tools over stdio until the client closes
 * stdin (or SIGINT/SIGTERM). stdout carries the protocol alone: messages go to stderr, and a
 * start-up error too, even under `--json`. A closed stdin lets the calls already received finish
 * and answer (exit 0); a signal cancels them at once, answering each with an error (exit 130).
 */
export async function mcp(options: McpCommandOptions, context: CommandContext): Promise<McpEnd> {
  // runCommand prints an error's body on stdout under --json: here stdout is the protocol's.
  context.json = false;
  const [{ openMcpTarget }, { createMcpServer }, { InFlightCalls }, { serveStdio }] = await Promise.all([
    import('../../mcp/mcp-target'),
    import('../../mcp/mcp-server'),
    import('../../mcp/in-flight-calls'),
    import('../../mcp/serve-stdio'),
  ]);
  const target = await openMcpTarget(options, context);
  const calls = new InFlightCalls();
  const server = createMcpServer(target, options.version ?? '0.0.0', calls);
  const served = serveStdio(server, calls, { signal: context.signal });
  context.stderr.write(
    `parley mcp: serving ${target.credentials.baseUrl} (key from ${target.credentials.apiKeySource}${target.emulator ? ', emulator tools on' : ''}) on stdio\n`,
  );
  return { end: await served };
}

export default defineCommand({
  run: mcp,
  longRunning: true,
  exitCode: ({ end }) => (end === 'interrupted' ? EXIT.interrupted : EXIT.ok),
  // The version the program was given: importing package.json here would put it in a chunk that
  // `parley --version` then has to load.
  parse: ({ flags, args, command }): McpCommandOptions => {
    const version = command.parent?.version();
    return { ...flags, ...args, ...(version === undefined ? {} : { version }) };
  },
});
