import { API_TOOLS } from './_api-tools';
import { EMULATOR_TOOLS } from './_emulator-tools';
import { RECEIVER_TOOLS } from './_receiver-tools';
import type { ToolSpec } from './_tool-spec';

export type { ToolGroup, ToolSpec } from './_tool-spec';

/** Every tool of `parley mcp`, in the order it lists them (docs/mcp.md's table is made from this). */
export const MCP_TOOLS: readonly ToolSpec[] = [...API_TOOLS, ...EMULATOR_TOOLS, ...RECEIVER_TOOLS];

const GROUP_TITLES = new Map([
  ['api', 'The API (any key)'],
  ['emulator', 'The emulator (offered when the target is one)'],
  ['receivers', 'Your webhook receiver'],
]);

/**
 * The Markdown of docs/mcp.md's tool list: one table per group, each tool with its arguments
 * (required ones first, optional ones with `?`) and its description.
 */
export function toolListMarkdown(tools: readonly ToolSpec[] = MCP_TOOLS): string {
  const sections: string[] = [];
  for (const [group, title] of GROUP_TITLES) {
    const rows = tools
      .filter((tool) => tool.group === group)
      .map(
        (tool) =>
          `| \`${tool.name}\` | ${argumentList(tool) || '–'} | ${tool.description.replaceAll('|', '\\|')} |`,
      );
    sections.push(
      `### ${title}\n\n| tool | arguments | what it does |\n| --- | --- | --- |\n${rows.join('\n')}`,
    );
  }
  return `${sections.join('\n\n')}\n`;
}

function argumentList(tool: ToolSpec): string {
  const fields = Object.entries(tool.input.shape as Record<string, { isOptional(): boolean }>);
  const required = fields.filter(([, schema]) => !schema.isOptional()).map(([name]) => `\`${name}\``);
  const optional = fields.filter(([, schema]) => schema.isOptional()).map(([name]) => `\`${name}?\``);
  return [...required, ...optional].join(', ');
}
