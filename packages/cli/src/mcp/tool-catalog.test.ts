// docs/mcp.md's tool list is made from the tools' own definitions: this test fails when the two
// differ. Regenerate the list with `UPDATE_MCP_DOCS=1 npx vitest run packages/cli/src/mcp/tool-catalog.test.ts`,
// then `pnpm format`.

import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MCP_TOOLS, toolListMarkdown } from './tool-catalog';

const DOC = new URL('../../../../docs/mcp.md', import.meta.url);
const START = '<!-- tool list: generated from packages/cli/src/mcp (tool-catalog.test.ts) -->\n';
const END = '<!-- end of the tool list -->';
// The docs are formatted by biome (`pnpm format`), which pads table cells to aligned columns: compare
// the tables as Markdown reads them, padding and separator lengths aside.
const unpadded = (markdown: string): string =>
  markdown.replace(/ {2,}\|/g, ' |').replace(/\| -{3,} /g, '| --- ');

describe('docs/mcp.md', () => {
  it('lists exactly the tools the server has, as the code describes them', () => {
    const doc = readFileSync(DOC, 'utf8');
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    expect(start, 'the start marker').toBeGreaterThan(0);
    expect(end, 'the end marker').toBeGreaterThan(start);
    const generated = `\n${toolListMarkdown()}\n`;
    if (process.env.UPDATE_MCP_DOCS === '1') {
      writeFileSync(DOC, `${doc.slice(0, start + START.length)}${generated}${doc.slice(end)}`);
      return;
    }
    expect(unpadded(doc.slice(start + START.length, end))).toBe(generated);
  });

  it('the list names each tool once, with its arguments, in a table of its group', () => {
    const names = MCP_TOOLS.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    const markdown = toolListMarkdown();
    expect(markdown).toContain(
      '| `send_message` | `type`, `connection_id`, `to`, `template?`, `text?`, `client_reference?`, `idempotency_key?` |',
    );
    expect(markdown).toContain('| `advance_clock` | `duration`, `workspace_id?` |');
    expect(markdown).toContain('| `get_status` | – |');
    expect(markdown.match(/^### /gm)).toHaveLength(3);
    // A description's "|" would break its row.
    expect(toolListMarkdown([{ ...MCP_TOOLS[0]!, description: 'a | b' }])).toContain('| a \\| b |');
  });
});
