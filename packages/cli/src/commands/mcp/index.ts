import type { CommandContext } from '../../context';
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

/**
 * `parley mcp`: serves the API and the emulator as MCP tools over stdio until the client closes
 * stdin (or SIGINT/SIGTERM). stdout carries the protocol alone: messages go to stderr, and a
 * start-up error too, even under `--json`.
 */
export async function mcp(options: McpCommandOptions, context: CommandContext): Promise<undefined> {
  // runCommand prints an error's body on stdout under --json: here stdout is the protocol's.
  context.json = false;
  const [{ openMcpTarget }, { createMcpServer }, { StdioServerTransport }] = await Promise.all([
    import('../../mcp/mcp-target'),
    import('../../mcp/mcp-server'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ]);
  const target = await openMcpTarget(options, context);
  const server = createMcpServer(target, options.version ?? '0.0.0');
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    context.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  context.stderr.write(
    `parley mcp: serving ${target.credentials.baseUrl} (key from ${target.credentials.apiKeySource}${target.emulator ? ', emulator tools on' : ''}) on stdio\n`,
  );
  await closed;
  await server.close().catch(() => {});
  return undefined;
}

export default defineCommand({
  run: mcp,
  longRunning: true,
  // The version the program was given: importing package.json here would put it in a chunk that
  // `parley --version` then has to load.
  parse: ({ flags, args, command }): McpCommandOptions => {
    const version = command.parent?.version();
    return { ...flags, ...args, ...(version === undefined ? {} : { version }) };
  },
});
