// Examples shown at the end of each command's --help. Static text, read by the entry: `--help`
// stays as cheap as any other start (no command module is loaded to show them).

/**
 * Where the guides are published. The installed package holds no docs folder (its `files` are
 * dist, README, LICENSE and CHANGELOG), so a message points at the published page, never at
 * `docs/…`.
 */
export const DOCS_URL = 'https://github.com/parley/parley-tooling/blob/main/docs';

/** The published address of a guide, and of one of its sections (a GitHub heading anchor). */
export function docsLink(page: string, section?: string): string {
  return `${DOCS_URL}/${page}${section === undefined ? '' : `#${section}`}`;
}

const CONNECTION = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
const MESSAGE = 'cbe05b35-273d-42ba-8bfa-7cfb469c5e61';
const APP = 'http://127.0.0.1:3000/webhooks';
const WORKSPACE = '5a6b7c8d-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
const ENDPOINT = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';

/** Two or three command lines per command, keyed by its path (`''` is `parley` itself). */
export const HELP_EXAMPLES: Record<string, readonly string[]> = {
  '': [
    'parley config set --api-key prl_sandbox_… --base-url http://127.0.0.1:4010/v1',
    `parley send --connection ${CONNECTION} --to +33612345678 --template hello_world --wait`,
    `parley listen --forward-to ${APP}`,
  ],
  status: ['parley status', 'parley status --json', 'parley status --profile staging'],
  send: [
    `parley send --connection ${CONNECTION} --to +33612345678 --template order_confirmation --var Ada A-1042 --wait`,
    `parley send --connection ${CONNECTION} --to +15550101002 --text hi --wait read --advance   # the emulator: moves its clock until read`,
    'parley send            # in a terminal: asks for the connection, template, variables and recipient',
  ],
  messages: [`parley messages get ${MESSAGE}`, `parley messages get ${MESSAGE} --watch`],
  'messages get': [
    `parley messages get ${MESSAGE}`,
    `parley messages get ${MESSAGE} --watch --timeout 60`,
    `parley messages get ${MESSAGE} --json`,
  ],
  connections: ['parley connections list', 'parley connections list --json'],
  'connections list': ['parley connections list', 'parley connections list --json --profile staging'],
  templates: [
    `parley templates list --connection ${CONNECTION}`,
    `parley templates list --connection ${CONNECTION} --json`,
  ],
  'templates list': [
    `parley templates list --connection ${CONNECTION}`,
    `parley templates list --connection ${CONNECTION} --json`,
  ],
  trigger: [
    'parley trigger message.received',
    `parley trigger message.received --set data.message.text='Where is my order?' --set data.message.from=+33612345678`,
    'parley trigger message.status_updated --set data.message.status=failed --json',
  ],
  listen: [
    `parley listen --forward-to ${APP}`,
    `SECRET=$(parley listen --forward-to ${APP} --print-secret)   # the same secret on every run`,
    `parley listen --forward-to ${APP} --events message.received,message.status_updated --json`,
  ],
  webhooks: [
    'parley webhooks verify --headers headers.txt --body body.json',
    'parley webhooks sign --body event.json --secret whsec_…',
    `parley webhooks doctor ${APP} --secret whsec_…`,
  ],
  'webhooks verify': [
    'parley webhooks verify --headers headers.txt --body body.json   # secret from PARLEY_WEBHOOK_SECRET',
    'parley webhooks verify --secret whsec_… --headers headers.json --body body.json --tolerance Infinity',
  ],
  'webhooks sign': [
    'parley webhooks sign --body event.json --secret whsec_…',
    'parley webhooks sign --body event.json --url http://127.0.0.1:3000/hooks --json',
  ],
  'webhooks doctor': [
    `parley webhooks doctor ${APP}   # secret from PARLEY_WEBHOOK_SECRET`,
    `parley webhooks doctor ${APP} --secret whsec_… --json > doctor.json   # exit 1 when a case fails`,
    `parley webhooks doctor ${APP} --timeout 2`,
  ],
  logs: ['parley logs tail', 'parley logs tail --status 4xx --path /v1/messages'],
  'logs tail': [
    'parley logs tail',
    'parley logs tail --status 4xx --path /v1/messages',
    'parley logs tail --json | jq -c \'select(.kind == "delivery")\'',
  ],
  emulator: [
    'parley emulator start --clock frozen',
    'parley emulator clock advance 5s',
    'parley emulator faults add --status 503 --code internal_error --path /v1/messages',
  ],
  'emulator start': [
    'parley emulator start',
    'parley emulator start --clock frozen --port 4011',
    'parley emulator start --data-dir .parley --seed seed.json',
  ],
  'emulator clock': [
    'parley emulator clock',
    'parley emulator clock advance 5s',
    `parley emulator clock --workspace ${WORKSPACE} --json`,
  ],
  'emulator clock advance': [
    'parley emulator clock advance 5s    # a sandbox message goes queued → sent → delivered',
    `parley emulator clock advance 5s --workspace ${WORKSPACE}   # a workspace with its own clock`,
    'parley emulator clock advance 2d --base-url http://127.0.0.1:4011/v1',
  ],
  'emulator reset': [
    'parley emulator reset',
    `parley emulator reset --workspace ${WORKSPACE}   # that workspace's traffic only`,
    'parley emulator reset --base-url http://127.0.0.1:4011/v1',
  ],
  'emulator faults': [
    'parley emulator faults add --status 503 --code internal_error --method POST --path /v1/messages --times 2',
    'parley emulator faults list',
    'parley emulator faults clear',
  ],
  'emulator faults add': [
    'parley emulator faults add --status 503 --code internal_error --method POST --path /v1/messages --times 2',
    'parley emulator faults add --status 429 --code rate_limited --retry-after 2',
    "parley emulator faults add --hang --path '/v1/messages/*' --key-prefix prl_sandbox_AbCd   # that key only",
  ],
  'emulator faults list': ['parley emulator faults list', 'parley emulator faults list --json'],
  'emulator faults clear': [
    'parley emulator faults clear',
    'parley emulator faults clear 3f1c0e9a-8b2d-4c7e-9f10-2a3b4c5d6e7f',
  ],
  'emulator magic-numbers': [
    'parley emulator magic-numbers',
    "parley emulator magic-numbers --json | jq -r '.[].number'",
  ],
  'emulator chaos': [
    `parley emulator chaos ${ENDPOINT} --duplicate next:2 --stale-timestamp rate:0.1 --seed 42`,
    `parley emulator chaos ${ENDPOINT} --delayed next:1 --delay-ms 5000`,
    `parley emulator chaos ${ENDPOINT} --off`,
  ],
  'emulator status': ['parley emulator status', 'parley emulator status --json'],
  'emulator export': [
    'parley emulator export --out bug-1234.json   # attach it to the bug report',
    `parley emulator export --workspace ${WORKSPACE} --include-secrets --out ws.json`,
  ],
  'emulator import': [
    'parley emulator import bug-1234.json',
    'parley emulator start --import bug-1234.json   # or start from it',
  ],
  'emulator har': [
    'parley emulator har --out traffic.har   # open it in a browser network panel',
    'parley emulator har --deliveries --since 2026-10-14T09:30:00Z --out traffic.har',
  ],
  mcp: [
    `parley mcp   # started by an MCP client: tools on stdio (${docsLink('mcp.md')})`,
    'PARLEY_PROFILE=staging parley mcp',
  ],
  config: [
    'parley config set --api-key prl_sandbox_… --base-url http://127.0.0.1:4010/v1',
    'parley config list',
    'parley config use staging',
  ],
  'config set': [
    'parley config set --api-key prl_sandbox_… --base-url http://127.0.0.1:4010/v1',
    'parley config set --profile staging --base-url http://127.0.0.1:4011/v1',
  ],
  'config list': ['parley config list', 'parley config list --json'],
  'config use': ['parley config use staging', 'PARLEY_PROFILE=staging parley status   # for one command'],
  'config delete': ['parley config delete staging', 'parley config delete staging --json'],
  chat: [
    `parley chat --connection ${CONNECTION} --from +33612345678   # type as the customer; the app's replies print as they happen`,
    `parley chat --connection ${CONNECTION} --from +15550101002 --json   # a JSON line per change, for scripts`,
  ],
  scenario: [
    `parley scenario run examples/scenarios/*.yaml   # the format: ${docsLink('scenarios.md')}`,
    'parley scenario run checkout.yaml --junit reports/scenarios.xml   # in CI',
  ],
  'scenario run': [
    'parley scenario run examples/scenarios/*.yaml',
    'parley scenario run checkout.yaml --junit reports/scenarios.xml   # in CI',
    'parley scenario run checkout.yaml --json',
  ],
  'scenario record': [
    'parley scenario record --out checkout.yaml   # the one application of the running emulator',
    `parley scenario record --workspace ${WORKSPACE} --app 2b3c4d5e-6f70-4a1b-8c2d-3e4f5a6b7c8d --out bug-1234.yaml --force`,
  ],
  completion: [
    'parley completion bash >> ~/.bashrc',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh expansion the user types, not a JS template
    'parley completion zsh > "${fpath[1]}/_parley"',
    'parley completion fish > ~/.config/fish/completions/parley.fish',
  ],
};

/** What `config set` can save, for its --help. */
export const CONFIG_SET_KEYS = `
Keys (saved in the profile named by --profile, else the current one, else "default"):
  api_key   --api-key KEY    prl_sandbox_… or prl_live_… followed by 32 letters or digits
  base_url  --base-url URL   http(s) URL ending in /v1, e.g. http://127.0.0.1:4010/v1`;

/** The "Examples:" block of a command's help; empty when the table has none for it. */
export function examplesText(path: string): string {
  const examples = HELP_EXAMPLES[path];
  return examples ? `\nExamples:\n${examples.map((example) => `  $ ${example}`).join('\n')}` : '';
}
