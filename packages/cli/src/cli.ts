#!/usr/bin/env node
// The thin entry (STYLE item 9): commander and the command table only. Each action loads its
// command on demand, so `--version` and `--help` never load the SDK, chalk or prompts.
import module from 'node:module';
import { Command, CommanderError, Option } from 'commander';
import { version } from '../package.json';
import type { CommandModule } from './commands/command-module';
import { EXIT } from './exit-error';
import { CONFIG_SET_KEYS, examplesText } from './help-examples';

// Node 22.1+: later chunks (commands, SDK) are compiled once and cached on disk.
module.enableCompileCache?.();

let exitCode: number = EXIT.ok;

function lazy<Options, Data>(
  load: () => Promise<{ default: CommandModule<Options, Data> }>,
  argumentNames: readonly string[] = [],
) {
  return async (...received: unknown[]) => {
    const command = received.at(-1) as Command;
    const args = Object.fromEntries(argumentNames.map((name, index) => [name, received[index]]));
    const [{ runCommand }, { default: commandModule }] = await Promise.all([import('./run-command'), load()]);
    exitCode = await runCommand(commandModule, { flags: command.optsWithGlobals(), args, command });
  };
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

const program = new Command('parley')
  .description('Parley messaging API from the terminal: send, inspect, trigger and listen to webhooks')
  .version(version, '-v, --version', 'print the version')
  .helpOption('-h, --help', 'show help for a command')
  // Set before the commands are added, which copy it: every --help lists the global flags.
  .configureHelp({ showGlobalOptions: true })
  .option('--api-key <key>', 'API key (default: PARLEY_API_KEY, then the profile)')
  .option('--base-url <url>', 'API base URL ending in /v1 (default: PARLEY_BASE_URL, then the profile)')
  .option('--profile <name>', 'saved profile to use (default: PARLEY_PROFILE, then `config use`)')
  .option('--json', 'print only the data as JSON on stdout (errors as {"error":{…}})')
  .option('--no-input', 'never prompt; missing arguments are usage errors')
  .option('--no-color', 'plain text output (also NO_COLOR=1 or when not a terminal)')
  .option('--verbose', 'log every API attempt to stderr: status, request id, retries (also PARLEY_LOG=debug)')
  .showHelpAfterError('(add --help for usage)')
  .exitOverride()
  .addHelpText(
    'after',
    `
Exit codes:
  0  ok
  1  the API refused the call, or the check failed (message failed, signature invalid)
  2  usage error: missing or wrong arguments
  3  network or configuration error: no key or base URL, server unreachable
  130  interrupted (Ctrl-C)
Environment: PARLEY_API_KEY, PARLEY_BASE_URL, PARLEY_PROFILE, PARLEY_WEBHOOK_SECRET, NO_COLOR
Docs: docs/cli.md`,
  );

program
  .command('status')
  .description('who am I: application, workspace, environment, scopes, rate limit')
  .action(lazy(() => import('./commands/status/index')));

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
    new Option('--wait [status]', 'follow the message until it reaches status (default: delivered)').choices([
      'sent',
      'delivered',
      'read',
    ]),
  )
  .option('--timeout <seconds>', 'give up --wait after this many seconds', '60')
  .option('--interval <ms>', 'poll interval of --wait', '1000')
  .action(lazy(() => import('./commands/send/index')));

const messages = program.command('messages').description('read messages');
messages
  .command('get')
  .description('show a message and its status')
  .argument('<id>', 'message id')
  .option('--watch', 'follow the status until it is final')
  .option('--timeout <seconds>', 'give up --watch after this many seconds', '300')
  .option('--interval <ms>', 'poll interval of --watch', '1000')
  .action(lazy(() => import('./commands/messages/index'), ['id']));

program
  .command('connections')
  .description('business numbers of the application')
  .command('list')
  .description('list connections')
  .action(lazy(() => import('./commands/connections/index')));

program
  .command('templates')
  .description('message templates of a connection')
  .command('list')
  .description('list the templates of a connection')
  .requiredOption('--connection <id>', 'connection id (see `parley connections list`)')
  .action(lazy(() => import('./commands/templates/index')));

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

program
  .command('listen')
  .description('forward emulator webhooks to your local app, verifying each signature')
  .requiredOption('--forward-to <url>', 'where to POST each delivery, e.g. http://127.0.0.1:3000/webhooks')
  .option('--events <types>', 'comma-separated event types (default: all)')
  .option('--print-secret', 'print the signing secret for --forward-to and exit (the same on every run)')
  .option('--secret <secret>', 'sign with this whsec_… secret instead of the one saved for --forward-to')
  .action(lazy(() => import('./commands/listen/index')));

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
  .option('--secret <secret>', "the receiver's signing secret (default: PARLEY_WEBHOOK_SECRET)", collect)
  .option('--timeout <seconds>', 'wait this long for each answer, at most 15 (what Parley waits)', '15')
  .action(lazy(() => import('./commands/webhooks/doctor'), ['url']));

program
  .command('logs')
  .description("the emulator's activity, live")
  .command('tail')
  .description('follow the emulator live: requests, events, statuses, deliveries (Ctrl-C stops)')
  .option('--status <status>', 'only this status: an HTTP status (404), a class (4xx) or a word (delivered)')
  .option('--path <path>', 'only requests at this path or under it, e.g. /v1/messages')
  .action(lazy(() => import('./commands/logs/tail')));

const emulator = program
  .command('emulator')
  .description('run the local Parley emulator; move its clocks, reset it, inject faults and webhook chaos');
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
  .argument('<duration>', 'a whole number and a unit: 500ms, 5s, 10m, 1h, 2d')
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

program
  .command('completion')
  .description('print a shell completion script: parley completion bash >> ~/.bashrc')
  .addArgument(program.createArgument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
  .action(lazy(() => import('./commands/completion/index'), ['shell']));

(function addExamples(command: Command, path: string) {
  command.addHelpText('after', examplesText(path));
  for (const child of command.commands) addExamples(child, `${path} ${child.name()}`.trim());
})(program, '');

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof CommanderError) {
    exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    process.stderr.write(
      `parley: unexpected error: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    exitCode = EXIT.api;
  }
}
// The only process.exit of the CLI: commands return or throw ExitError, this ends the process.
process.exit(exitCode);
