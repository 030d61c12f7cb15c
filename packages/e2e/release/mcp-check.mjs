// Issue 25: `parley mcp` from the packed CLI tarball, on Node 22 and on Node 24.
//   node mcp-check.mjs <work dir>     (check.sh; PARLEY_NODE22 = Node 22's binary; 127.0.0.1 only)
// In <work>/project (install.sh's fresh project, the tarballs installed by npm): the packed emulator
// started with a frozen clock, then, for each Node, the packed `parley mcp` driven over stdio by the
// MCP SDK's client as that project installed it: the tool list, send_message → advance_clock 5s →
// get_message delivered, a schema error naming the field, the API's error fields, tail_activity.
// One ✓/✗ line per check; exit 1 when any failed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [work] = process.argv.slice(2);
if (!work) {
  console.error('usage: node mcp-check.mjs <work dir>');
  process.exit(2);
}
const project = join(work, 'project');
const toolDir = process.env.PARLEY_TOOL_DIR ?? join(process.env.HOME ?? '/tmp', '.cache/parley-tool');
const nodes = [
  ['Node 22', process.env.PARLEY_NODE22 ?? join(toolDir, 'node22/node_modules/.bin/node')],
  [`Node ${process.versions.node.split('.')[0]}`, process.execPath],
];
// The client as the project installed it (a dependency of the CLI tarball), not the workspace's.
const projectRequire = createRequire(join(project, 'package.json'));
const { Client } = projectRequire('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = projectRequire('@modelcontextprotocol/sdk/client/stdio.js');
const cli = join(project, 'node_modules/@parley/cli/dist/cli.js');
const SANDBOX_CONNECTION = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
let failed = 0;

async function check(name, body) {
  try {
    const detail = await body();
    console.log(`✓ ${name}${detail ? `: ${detail}` : ''}`);
  } catch (error) {
    failed++;
    console.log(`✗ ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function expectEqual(actual, expected, what) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

/** The packed emulator on a free port of 127.0.0.1, and its ready line. */
async function startEmulator(node) {
  const child = spawn(
    node,
    [
      join(project, 'node_modules/@parley/emulator/dist/bin.js'),
      '--port',
      '0',
      '--json',
      '--clock',
      'frozen',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const ready = await new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error('the emulator printed no ready line in 30 s')), 30_000);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the emulator exited ${code} before its ready line`)));
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const newline = buffered.indexOf('\n');
      if (newline === -1) return;
      clearTimeout(timer);
      resolve(JSON.parse(buffered.slice(0, newline)));
    });
  });
  child.removeAllListeners('exit');
  return { ready, stop: () => child.kill('SIGTERM') };
}

async function callTool(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { result, text: result.content?.[0]?.text ?? '' };
}

for (const [label, node] of nodes) {
  if (!existsSync(node)) {
    failed++;
    console.log(`✗ ${label}: no node at ${node}`);
    continue;
  }
  const { ready, stop } = await startEmulator(node);
  const transport = new StdioClientTransport({
    command: node,
    args: [cli, 'mcp'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      XDG_CONFIG_HOME: join(work, 'mcp-config'),
      PARLEY_API_KEY: ready.sandbox_key,
      PARLEY_BASE_URL: ready.base_url,
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr += chunk));
  const client = new Client({ name: 'parley-release-check', version: '0.0.0' });
  try {
    await check(`${label}: parley mcp (packed) starts and lists its 19 tools`, async () => {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expectEqual(tools.length, 19, 'tools');
      for (const name of ['send_message', 'advance_clock', 'tail_activity', 'doctor_webhook_receiver']) {
        if (!tools.some((tool) => tool.name === name)) throw new Error(`no ${name}`);
      }
      // The guides and both OpenAPI descriptions ship in the package (dist/docs/): a packed install
      // serves them offline, not only the magic numbers.
      const uris = (await client.listResources()).resources.map((resource) => resource.uri);
      for (const uri of [
        'parley://docs/mcp.md',
        'parley://openapi/openapi.yaml',
        'parley://openapi/emulator-api.yaml',
      ]) {
        if (!uris.includes(uri)) throw new Error(`no resource ${uri} in ${uris.join(', ')}`);
      }
      const page = await client.readResource({ uri: 'parley://docs/mcp.md' });
      if (!page.contents[0]?.text?.startsWith('# ')) throw new Error('docs/mcp.md read empty');
      return `${uris.length} resources`;
    });
    await check(`${label}: send_message → advance_clock 5s → get_message delivered`, async () => {
      const sent = await callTool(client, 'send_message', {
        type: 'template',
        connection_id: SANDBOX_CONNECTION,
        to: '+33612345678',
        template: { name: 'hello_world', language: 'en' },
      });
      if (sent.result.isError) throw new Error(sent.text);
      const { message, idempotency_key } = sent.result.structuredContent;
      if (!/^[0-9a-f-]{36}$/.test(idempotency_key)) throw new Error(`idempotency_key ${idempotency_key}`);
      const advanced = await callTool(client, 'advance_clock', { duration: '5s' });
      expectEqual(advanced.result.structuredContent?.advanced_ms, 5000, 'advanced_ms');
      const got = await callTool(client, 'get_message', { id: message.id });
      expectEqual(got.result.structuredContent?.status, 'delivered', 'status');
      return message.id;
    });
    await check(
      `${label}: bad input is a schema error naming the field; an API error is {code, message, request_id}`,
      async () => {
        const bad = await callTool(client, 'advance_clock', { duration: 'soon' });
        if (!bad.result.isError || !/Input validation error[\s\S]* at duration/.test(bad.text))
          throw new Error(bad.text);
        const missing = await callTool(client, 'get_message', { id: '00000000-0000-4000-8000-000000000000' });
        const { error } = JSON.parse(missing.text);
        expectEqual(
          [missing.result.isError, error.code, /^req_/.test(error.request_id)],
          [true, 'not_found', true],
          'error',
        );
      },
    );
    await check(`${label}: tail_activity shows the requests, the key masked`, async () => {
      const activity = await callTool(client, 'tail_activity', { kind: 'request', limit: 5 });
      const items = activity.result.structuredContent?.data ?? [];
      if (
        !items.some((item) => item.method === 'POST' && item.path === '/v1/messages' && item.status === 202)
      ) {
        throw new Error(activity.text.slice(0, 500));
      }
      if (activity.text.includes(ready.sandbox_key) || stderr.includes(ready.sandbox_key))
        throw new Error('the key is shown');
    });
  } finally {
    await client.close().catch(() => {});
    stop();
  }
}
process.exit(failed ? 1 : 0);
