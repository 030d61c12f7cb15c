import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerPrompts } from './_prompts';
import { registerResources } from './_resources';
import { toolFailure, toolResult } from './_tool-output';
import { InFlightCalls } from './in-flight-calls';
import type { McpTarget } from './mcp-target';
import { MCP_TOOLS } from './tool-catalog';

/**
 * The MCP server of `parley mcp`: the API tools, the emulator tools when the target is an
 * emulator, the receiver tools, the resources and the prompts. Every tool's arguments are checked
 * by its schema before any call (the SDK answers a schema error naming the field); every failure
 * is `{ error: { code, message, request_id } }`, never a stack; no result holds a key or a secret
 * but the new endpoint's. Every handler is counted in `calls` while it runs.
 */
export function createMcpServer(
  target: McpTarget,
  version: string,
  calls: InFlightCalls = new InFlightCalls(),
): McpServer {
  const server = new McpServer(
    { name: 'parley', title: 'Parley', version },
    {
      instructions:
        'Parley messaging API tools. Against the local emulator (no account, no network) the emulator tools move its clock, inject faults and webhook chaos, and show deliveries and activity: prefer advance_clock to waiting.',
    },
  );
  for (const tool of MCP_TOOLS) {
    if (tool.group === 'emulator' && !target.emulator) continue;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { title: tool.title, readOnlyHint: tool.readOnly === true, openWorldHint: false },
      },
      calls.wrap(async (args: unknown) => {
        try {
          return toolResult(await tool.run(args as never, target), tool.createsSecret === true);
        } catch (error) {
          return toolFailure(error);
        }
      }),
    );
  }
  registerResources(server, target, calls);
  registerPrompts(server, calls);
  return server;
}
