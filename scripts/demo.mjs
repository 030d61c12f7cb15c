#!/usr/bin/env node
// `pnpm demo`: the whole loop on this machine in a few seconds, with the BUILT packages (built
// first only when their sources are newer, as `pnpm emulator` does). Starts the emulator (frozen
// clock), a tiny webhook receiver, registers it, sends a template with the SDK, moves the clock
// until the message is delivered, and shows every signed `message.status_updated` arriving and
// verified. `--keep` leaves the emulator running.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { buildPackages, buildStale } from './_built-packages.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
try {
  // The CLI's closure is the SDK, the emulator and the CLI: all three are used or printed below.
  buildStale(root, 'packages/cli', (rootFolder, filter) => {
    console.error(`Building ${filter} and what it uses: their sources are newer than their build…`);
    return buildPackages(rootFolder, filter);
  });
} catch (error) {
  console.error(`✗ ${error.message}`);
  process.exit(1);
}
const emulatorEntry = new URL('../packages/emulator/dist/index.js', import.meta.url);
const sdkEntry = new URL('../packages/sdk/dist/node/index.js', import.meta.url);
for (const entry of [emulatorEntry, sdkEntry]) {
  if (!existsSync(entry)) {
    console.error(`✗ ${fileURLToPath(entry)} is missing: run \`pnpm build\` first.`);
    process.exit(1);
  }
}
const { startEmulatorServer, SANDBOX_ACTIVE_CONNECTION_ID } = await import(emulatorEntry.href);
const { Parley, verifyWebhook, isWebhookVerificationError } = await import(sdkEntry.href);

const keep = process.argv.includes('--keep');
const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const [green, dim, bold, red] = [paint(32), paint(2), paint(1), paint(31)];
const say = (line = '') => console.log(line);

/** The emulator on 4010 when it is free, otherwise on any free port. */
async function startEmulator() {
  try {
    return await startEmulatorServer({ port: 4010, clock: 'frozen' });
  } catch {
    return await startEmulatorServer({ port: 0, clock: 'frozen' });
  }
}

/** A receiver that verifies every delivery with the SDK and reports it. */
async function startReceiver(getSecret, onDelivery) {
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    try {
      // No options: deliveries are signed with real time, whatever the emulator clock says.
      const event = await verifyWebhook(body, req.headers, getSecret());
      res.writeHead(204).end();
      onDelivery({ event, verified: true });
    } catch (error) {
      res.writeHead(400).end();
      onDelivery({
        error: isWebhookVerificationError(error) ? error.reason : String(error),
        verified: false,
      });
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}/webhooks/parley` };
}

const started = Date.now();
const emulatorServer = await startEmulator();
const { emulator, baseUrl, consoleUrl, sandboxKey } = emulatorServer;
say(bold('Parley demo: the emulator, one message and its signed webhooks'));
say();
say(`${green('✓')} emulator   ${baseUrl}  ${dim(`(console ${consoleUrl}, clock frozen)`)}`);

let secret = '';
const deliveries = [];
const receiver = await startReceiver(
  () => secret,
  (delivery) => deliveries.push(delivery),
);
const parley = new Parley({ apiKey: sandboxKey, baseUrl });
const { application_id } = await parley.status.get();
const endpoint = await emulator.control.createEndpoint(application_id, {
  url: receiver.url,
  events: ['message.status_updated'],
});
secret = endpoint.secret;
say(`${green('✓')} receiver   ${receiver.url}  ${dim(`(endpoint ${endpoint.id})`)}`);

const { data: message, requestId } = await parley.messages
  .send({
    type: 'template',
    connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
    to: '+33612345678',
    template: { name: 'order_confirmation', language: 'fr', variables: ['Ada', 'A-1042'] },
  })
  .withResponse();
say(
  `${green('✓')} sent       ${message.id}  order_confirmation → ${message.to}  ${dim(`(${message.status}, ${requestId})`)}`,
);

let failures = 0;
let elapsed = 0;
for (const step of [2_000, 3_000]) {
  await emulator.clock.advance(step);
  await emulator.idle();
  elapsed += step / 1000;
  for (const delivery of deliveries.splice(0)) {
    if (delivery.verified) {
      const { event } = delivery;
      const status = event.data.message.status.padEnd(9);
      say(
        `  ${dim(`clock +${elapsed}s`)}  webhook ${event.type} ${bold(status)} ${dim(event.id)}  ${green('✓ verified')}`,
      );
    } else {
      failures++;
      say(`  ${dim(`clock +${elapsed}s`)}  webhook ${red(`✗ ${delivery.error}`)}`);
    }
  }
}
const final = await parley.messages.get(message.id);
say(
  `${final.status === 'delivered' ? green('✓') : red('✗')} ${final.status.padEnd(10)} GET /v1/messages/${final.id}`,
);
say(dim(`  (${((Date.now() - started) / 1000).toFixed(1)} s of real time for 5 s of emulator time)`));

const cli = `node ${fileURLToPath(new URL('../packages/cli/dist/cli.js', import.meta.url)).replace(root, '')}`;
const { port } = new URL(baseUrl);
const tryIt = [
  `  export PARLEY_BASE_URL=${baseUrl}`,
  `  export PARLEY_API_KEY=${sandboxKey}`,
  `  ${cli} send --connection ${SANDBOX_ACTIVE_CONNECTION_ID} --to +33612345678 --template hello_world --language en --wait --advance`,
  dim(`  # the clock is frozen: --advance moves it until delivered (or: ${cli} emulator clock advance 5s)`),
];

await new Promise((resolve) => receiver.server.close(resolve));
const ok = failures === 0 && final.status === 'delivered';
if (!ok || !keep) await emulatorServer.close();
if (!ok) process.exit(1);
say();
if (keep) {
  say(bold('Try it yourself') + dim(`  (this emulator keeps running on port ${port})`));
  for (const line of tryIt) say(line);
  say();
  say(`${green('●')} emulator running at ${baseUrl}; Ctrl-C to stop`);
  const stop = async () => {
    await emulatorServer.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  // The exports below name the demo's port, and that emulator is gone: say so, and how to have
  // one there again (`pnpm emulator` listens on 4010 unless told otherwise).
  const start =
    port === '4010' ? 'pnpm emulator --clock frozen' : `pnpm emulator --port ${port} --clock frozen`;
  say(`${dim('●')} The demo's emulator on port ${port} has stopped.`);
  say(
    bold('Try it yourself') +
      dim(`  (first \`${start}\` in another terminal, or \`pnpm demo --keep\` to keep the demo's)`),
  );
  for (const line of tryIt) say(line);
}
