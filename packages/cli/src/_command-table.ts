// The command table (STYLE item 9): every command of `parley`, each action importing its module
// only when it runs. Keyed by top-level command, so a call defines only the one it names.
import { type Command, Option } from 'commander';
import type { CommandModule } from './commands/command-module';
import { CONFIG_SET_KEYS } from './help-examples';

/** Turns a command module's loader into a commander action; `_program.ts` keeps the exit code. */
export type LazyAction = <Options, Data>(
  load: () => Promise<{ default: CommandModule<Options, Data> }>,
  argumentNames?: readonly string[],
) => (...received: unknown[]) => Promise<void>;

/** Defines one top-level command and its subcommands on `program`. */
export type DefineCommand = (program: Command, lazy: LazyAction) => void;

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The top-level commands in the order `parley --help` lists them. */
export const COMMAND_TABLE: ReadonlyMap<string, DefineCommand> = new Map<string, DefineCommand>([
  [
    'status',
    (program, lazy) => {
      program
        .command('status')
        .description('who am I: application, workspace, environment, scopes, rate limit')
        .action(lazy(() => import('./commands/status/index')));
    },
  ],
  [
    'send',
    (program, lazy) => {
      program
        .command('send')
        .description('send a template or text message (asks for missing arguments in a terminal)')
        .option('--connection <id>', 'connection to send from')
        .option('--to <phone>', 'recipient in international format, e.g. +33612345678')
        .option('--template <name>', 'template name')
        .option('--language <code>', 'template language, e.g. en')
        .option('--var <values...>', 'template variables in placeholder order ({{1}}, {{2}}, …)')
        .option('--text <text>', 'send a text message instead of a template')
        .option('--client-reference <ref>', 'your own reference, echoed on the message')
        .option('--idempotency-key <key>', 'Idempotency-Key header (default: a new UUID, printed)')
        .addOption(
          new Option(
            '--wait [status]',
            'follow the message until it reaches status (default: delivered)',
          ).choices(['sent', 'delivered', 'read']),
        )
        .option('--timeout <seconds>', 'give up --wait after this many seconds', '60')
        .option('--interval <ms>', 'poll interval of --wait', '1000')
        .option(
          '--advance',
          "with --wait, move the emulator's clock (a second at a time, up to --timeout) instead of waiting",
        )
        .action(lazy(() => import('./commands/send/index')));
    },
  ],
  [
    'messages',
    (program, lazy) => {
      const messages = program.command('messages').description('read messages');
      messages
        .command('get')
        .description('show a message and its status')
        .argument('<id>', 'message id')
        .option('--watch', 'follow the status until it is final')
        .option('--timeout <seconds>', 'give up --watch after this many seconds', '300')
        .option('--interval <ms>', 'poll interval of --watch', '1000')
        .action(lazy(() => import('./commands/messages/index'), ['id']));
    },
  ],
  [
    'connections',
    (program, lazy) => {
      program
        .command('connections')
        .description('business numbers of the application')
        .command('list')
        .description('list connections')
        .action(lazy(() => import('./commands/connections/index')));
    },
  ],
  [
    'templates',
    (program, lazy) => {
      program
        .command('templates')
        .description('message templates of a connection')
        .command('list')
        .description('list the templates of a connection')
        .requiredOption('--connection <id>', 'connection id (see `parley connections list`)')
        .action(lazy(() => import('./commands/templates/index')));
    },
  ],
  [
    'trigger',
    (program, lazy) => {
      program
        .command('trigger')
        .description('queue a synthetic sandbox event to the application endpoints')
        .argument('<event-type>', 'e.g. message.received, message.status_updated, webhook.test')
        .option(
          '--set <path=value>',
          'set a value in the event, repeatable: data.message.text="Where is my order?" (JSON when it parses)',
          collect,
        )
        .action(lazy(() => import('./commands/trigger/index'), ['eventType']));
    },
  ],
  [
    'listen',
    (program, lazy) => {
      program
        .command('listen')
        .description('forward emulator webhooks to your local app, verifying each signature')
        .requiredOption(
          '--forward-to <url>',
          'where to POST each delivery, e.g. http://127.0.0.1:3000/webhooks',
        )
        .option('--events <types>', 'comma-separated event types (default: all)')
        .option(
          '--print-secret',
          'print the signing secret for --forward-to and exit (the same on every run)',
        )
        .option(
          '--secret <secret>',
          'sign with this whsec_… secret instead of the one saved for --forward-to',
        )
        .action(lazy(() => import('./commands/listen/index')));
    },
  ],
  [
    'webhooks',
    (program, lazy) => {
      const webhooks = program
        .command('webhooks')
        .description('sign and verify webhook deliveries offline, and grade a running receiver');
      webhooks
        .command('verify')
        .description('check a captured delivery and say exactly why it fails')
        .option('--secret <secret>', 'signing secret, repeatable (default: PARLEY_WEBHOOK_SECRET)', collect)
        .requiredOption('--headers <file>', 'headers as JSON or `Name: value` lines; - for stdin')
        .requiredOption('--body <file>', 'raw body exactly as received; - for stdin')
        .option('--tolerance <seconds>', 'allowed clock difference; Infinity to skip the time check', '300')
        .action(lazy(() => import('./commands/webhooks/verify')));
      webhooks
        .command('sign')
        .description('sign a body like Parley does: a ready curl line, or --json {headers, body}')
        .option('--secret <secret>', 'signing secret, repeatable (default: PARLEY_WEBHOOK_SECRET)', collect)
        .requiredOption('--body <file>', 'JSON event body; - for stdin')
        .option('--id <event-id>', "event id (default: the body's id)")
        .option('--timestamp <seconds>', 'unix time in seconds (default: now)')
        .option('--url <url>', 'target of the curl line', 'http://127.0.0.1:3000/webhooks')
        .action(lazy(() => import('./commands/webhooks/sign')));
      webhooks
        .command('doctor')
        .description('grade a running receiver: what it accepts, refuses, deduplicates, and how fast')
        .argument('<url>', 'the receiver, e.g. http://127.0.0.1:3000/webhooks')
        .option(
          '--secret <secret>',
          "the receiver's signing secret (default: PARLEY_WEBHOOK_SECRET)",
          collect,
        )
        .option('--timeout <seconds>', 'wait this long for each answer, at most 15 (what Parley waits)', '15')
        .action(lazy(() => import('./commands/webhooks/doctor'), ['url']));
    },
  ],
  [
    'chat',
    (program, lazy) => {
      program
        .command('chat')
        .description(
          "play the customer: type as them to a connection, see the app's replies and statuses live",
        )
        .option('--connection <id>', 'the connection the customer writes to')
        .option('--from <phone>', "the customer's number, e.g. +33612345678 (asked in a terminal)")
        .option('--app <id>', "the application (default: the API key's)")
        .action(lazy(() => import('./commands/chat/index')));
    },
  ],
  [
    'logs',
    (program, lazy) => {
      program
        .command('logs')
        .description("the emulator's activity, live")
        .command('tail')
        .description(
          "follow the emulator live: requests, events, statuses, deliveries, each at the emulator's time, UTC (Ctrl-C stops)",
        )
        .option(
          '--status <status>',
          'only this status: an HTTP status (404), a class (4xx) or a word (delivered)',
        )
        .option('--path <path>', 'only requests at this path or under it, e.g. /v1/messages')
        .action(lazy(() => import('./commands/logs/tail')));
    },
  ],
  [
    'emulator',
    (program, lazy) => {
      const emulator = program
        .command('emulator')
        .description(
          'run the local Parley emulator; move its clocks, reset it, inject faults and webhook chaos',
        );
      emulator
        .command('start')
        .description('start the emulator (same flags as parley-emulator; --help lists them)')
        .helpOption(false)
        .allowUnknownOption()
        .allowExcessArguments()
        .action(lazy(() => import('./commands/emulator/index')));
      emulator
        .command('clock')
        .description("show the emulator's time and clock mode (real or frozen), or one workspace's")
        .option('--workspace <id>', "that workspace's clock: its own, or the global one it shares")
        .action(lazy(() => import('./commands/emulator/clock')))
        .command('advance')
        .description('move the emulator clock; every job that falls due runs (status steps, webhook retries)')
        .argument('<duration>', 'whole numbers with units, largest first: 500ms, 90s, 10m, 1h30m, 2d')
        .option('--workspace <id>', 'move the own clock of this workspace only (its jobs alone run)')
        .action(lazy(() => import('./commands/emulator/advance'), ['duration']));
      emulator
        .command('reset')
        .description('put the emulator back to its seed state, or clear one workspace')
        .option('--workspace <id>', "clear this workspace's messages, deliveries, events and faults only")
        .action(lazy(() => import('./commands/emulator/reset')));
      emulator
        .command('status')
        .description("the emulator's health, clock and what it holds")
        .action(lazy(() => import('./commands/emulator/status')));
      emulator
        .command('export')
        .description("save the emulator's state, clocks and activity as one bundle (JSON) to share or import")
        .option('--workspace <id>', 'only this workspace: its records, its clock, its activity')
        .option('--out <file>', 'write the bundle to this file (mode 0600) instead of printing it')
        .option(
          '--include-secrets',
          "keep endpoints' signing secrets, so deliveries are signed the same way after import",
        )
        .action(lazy(() => import('./commands/emulator/export')));
      emulator
        .command('import')
        .description("make a bundle of `parley emulator export` the running emulator's state")
        .argument('<file>', 'the bundle (at most 64 MiB)')
        .action(lazy(() => import('./commands/emulator/import'), ['file']));
      emulator
        .command('har')
        .description(
          "the emulator's recent /v1 traffic as HAR 1.2 (keys and secrets masked), for a browser's network panel",
        )
        .option('--out <file>', 'write the HAR to this file (mode 0600) instead of printing it')
        .option('--since <time>', 'only requests at or after this emulator time (ISO 8601)')
        .option('--workspace <id>', "only this workspace's traffic")
        .option('--deliveries', 'also the webhook delivery attempts')
        .action(lazy(() => import('./commands/emulator/har')));
      const faults = emulator
        .command('faults')
        .description('inject errors, hangs, drops and delays into /v1 requests');
      faults
        .command('add')
        .description('the next matching /v1 requests get this answer instead of the real one')
        .option('--status <code>', 'HTTP error status to answer, 400 to 599 (with --code)')
        .option('--code <code>', "error code of the answer's body, e.g. internal_error, rate_limited")
        .option('--retry-after <seconds>', 'Retry-After header of the answer (with --status)')
        .option('--hang', 'no answer until the client gives up')
        .option('--drop', 'reset the connection without an answer')
        .option('--delay-ms <ms>', 'the real answer, this many real milliseconds late')
        .addOption(
          new Option('--method <method>', 'only requests with this method (default: any)').choices([
            'GET',
            'POST',
            'PUT',
            'PATCH',
            'DELETE',
          ]),
        )
        .option('--path <path>', 'only requests at this /v1 path, * for one segment: /v1/messages/*')
        .option('--key-id <id>', 'only requests with this API key (its id: GET /_emulator/usage)')
        .option('--key-prefix <prefix>', 'only requests whose API key starts with this: prl_sandbox_AbCd')
        .option('--times <n>', 'how many matching requests get it (default 1)')
        .action(lazy(() => import('./commands/emulator/faults-add')));
      faults
        .command('list')
        .description('the injected faults and how many uses each has left')
        .action(lazy(() => import('./commands/emulator/faults-list')));
      faults
        .command('clear')
        .description('remove one fault, or every fault')
        .argument('[id]', 'the fault to remove (default: all)')
        .action(lazy(() => import('./commands/emulator/faults-clear'), ['id']));
      emulator
        .command('magic-numbers')
        .description('sandbox recipients with a fixed outcome (stays sent, read, failed, 409, 429…)')
        .action(lazy(() => import('./commands/emulator/magic-numbers')));
      const chaosSetting = 'next:N (the next N deliveries) or rate:R (that share, 0 to 1)';
      emulator
        .command('chaos')
        .description("show or set an endpoint's webhook chaos: duplicates, disorder, delays, forged copies")
        .argument('<endpoint-id>', 'the webhook endpoint')
        .option('--duplicate <setting>', `the same delivery twice: ${chaosSetting}`)
        .option('--out-of-order <setting>', `the delivery after a later one: ${chaosSetting}`)
        .option('--delayed <setting>', `the delivery late (--delay-ms, default 60 s): ${chaosSetting}`)
        .option('--delay-ms <ms>', 'emulator time a --delayed delivery waits')
        .option('--stale-timestamp <setting>', `first a copy 10 minutes old: ${chaosSetting}`)
        .option('--tampered-body <setting>', `first a copy changed after signing: ${chaosSetting}`)
        .option('--wrong-secret <setting>', `first a copy signed with an unknown secret: ${chaosSetting}`)
        .option('--other-event-signature <setting>', `first a copy signed for another event: ${chaosSetting}`)
        .option('--seed <n>', 'seed of the rate draws, to repeat a run (default: random, shown)')
        .option('--off', 'turn chaos off (deliveries already planned keep theirs)')
        .option('--show', 'show the settings and how many deliveries got each kind (the default)')
        .action(lazy(() => import('./commands/emulator/chaos'), ['endpointId']));
    },
  ],
  [
    'mcp',
    (program, lazy) => {
      program
        .command('mcp')
        .description(
          'serve the API and the emulator as tools for a coding agent (Model Context Protocol, stdio)',
        )
        .option(
          '--allow-live',
          'serve a live key too (refused by default: an agent would send real messages)',
        )
        .action(lazy(() => import('./commands/mcp/index')));
    },
  ],
  [
    'config',
    (program, lazy) => {
      const config = program
        .command('config')
        .description('saved profiles (~/.config/parley/config.json, mode 0600)');
      config
        .command('set')
        .description('save --api-key and/or --base-url in the profile named by --profile (default: default)')
        .addHelpText('after', CONFIG_SET_KEYS)
        .action(lazy(() => import('./commands/config/set')));
      config
        .command('list')
        .description('list profiles (keys masked)')
        .action(lazy(() => import('./commands/config/list')));
      config
        .command('use')
        .description('make a profile the default')
        .argument('<name>', 'profile name')
        .action(lazy(() => import('./commands/config/use'), ['name']));
      config
        .command('delete')
        .description('delete a saved profile (its key, base URL and listen secrets)')
        .argument('<name>', 'profile name')
        .action(lazy(() => import('./commands/config/delete'), ['name']));
    },
  ],
  [
    'scenario',
    (program, lazy) => {
      const scenario = program
        .command('scenario')
        .description('scenario files: steps over time and expectations, run in the emulator');
      scenario
        .command('run')
        .description('run scenario files, each in a workspace of its own with its own frozen clock')
        .argument('<files...>', 'scenario files (YAML)')
        .option('--junit <file>', 'also write the report as JUnit XML')
        .option('--parallel <n>', 'run up to n scenarios at once (1 to 16; default 1)')
        .action(lazy(() => import('./commands/scenario/run'), ['files']));
      scenario
        .command('record')
        .description("write an application's history in the running emulator as a scenario file")
        .requiredOption('--out <file>', 'the scenario file (YAML) to write')
        .option('--workspace <id>', 'only applications of this workspace')
        .option('--app <id>', 'the application to record (needed when there are several)')
        .option('--force', 'replace the file if it exists')
        .action(lazy(() => import('./commands/scenario/record')));
    },
  ],
  [
    'completion',
    (program, lazy) => {
      program
        .command('completion')
        .description('print a shell completion script: parley completion bash >> ~/.bashrc')
        .addArgument(program.createArgument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
        .action(lazy(() => import('./commands/completion/index'), ['shell']));
    },
  ],
]);
