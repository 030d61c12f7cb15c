// One side of the fault-table row (speed-rows.mjs), alone in its process so its heap and its
// collections are its own: an in-process emulator with FAULTS faults on other paths, answering
// `GET /v1/status` REQUESTS times whenever the parent asks; it replies with the CPU ms it took.
const { createEmulator } = await import(new URL('../dist/index.js', import.meta.url).href);

const faults = Number(process.env.FAULTS);
const requests = Number(process.env.REQUESTS);
const emulator = createEmulator({ clock: 'frozen', rateLimits: false });
await emulator.ready;
for (let index = 0; index < faults; index++) {
  await emulator.control.createFault({
    method: 'GET',
    path: `/v1/messages/msg_${index}`,
    times: 1,
    fault: { status: 503, code: 'service_unavailable' },
  });
}
const headers = { authorization: `Bearer ${emulator.sandboxKey}` };

async function round() {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < requests; index++) {
    const response = await emulator.fetch(new Request('http://127.0.0.1/v1/status', { headers }));
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`GET /v1/status answered ${response.status}`);
  }
  const used = process.cpuUsage(cpu);
  return { judged: (used.user + used.system) / 1000, wall: performance.now() - started };
}

process.on('message', async (message) => {
  if (message === 'round') process.send(await round());
  else await emulator.close().then(() => process.exit(0));
});
process.send('ready');
