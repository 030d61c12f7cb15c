// `pnpm bench` section 8, reference rows: what the HTTP framework costs a request. The bare h3 app
// of the throughput rows, the same two routes on node:http alone and the emulator, loaded in the
// same rounds on core 1, judged per CPU second as the throughput rows are. h3 is a quarter of what
// the bare h3 app spends on a send, but a few per cent of the emulator's (docs/testing.md).
import { fileURLToPath } from 'node:url';
import { median, startServer, stop } from './_processes.mjs';
import { answerBodies, loadPerCpuSecond } from './throughput.mjs';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const BARE_H3 = fileURLToPath(new URL('./bare-h3-server.mjs', import.meta.url));
const BARE_NODE = fileURLToPath(new URL('./bare-node-server.mjs', import.meta.url));
/** As the throughput rows run it: no rate limits, the clock frozen. */
const EMULATOR_FLAGS = ['--json', '--port', '0', '--rate-limits', 'off', '--clock', 'frozen'];

/**
 * Requests per CPU second, for `GET /v1/status` and `POST /v1/messages` (a new Idempotency-Key
 * each): bare node:http ÷ bare h3, and the emulator ÷ bare node:http.
 */
export async function httpLayerRows({ seconds = 2, rounds = 9 } = {}) {
  const emulator = await startServer([BIN, ...EMULATOR_FLAGS]);
  const key = emulator.ready.sandbox_key;
  const bodies = await answerBodies(emulator.ready.base_url, key);
  const env = { STATUS_JSON: bodies.status, MESSAGE_JSON: bodies.message };
  const h3 = await startServer([BARE_H3], env);
  const node = await startServer([BARE_NODE], env);
  const perCpuSecond = async (server, method, runSeconds) => {
    const { judged, bad } = await loadPerCpuSecond(server, { key, method, seconds: runSeconds });
    if (bad) throw new Error(`${method} ${server.ready.base_url}: ${bad} non-2xx or errors`);
    return judged;
  };
  try {
    const rows = [];
    for (const method of ['GET', 'POST']) {
      const round = (runSeconds) =>
        Promise.all([
          perCpuSecond(node, method, runSeconds),
          perCpuSecond(h3, method, runSeconds),
          perCpuSecond(emulator, method, runSeconds),
        ]);
      // Not counted: every server's code is optimised before it is timed.
      await round(0.5);
      const results = [];
      for (let index = 0; index < rounds; index++) results.push(await round(seconds));
      rows.push({
        method,
        node: median(results.map(([node]) => node)),
        h3: median(results.map(([, h3]) => h3)),
        emulator: median(results.map(([, , emulator]) => emulator)),
        nodeToH3: median(results.map(([node, h3]) => node / h3)),
        emulatorToNode: median(results.map(([node, , emulator]) => emulator / node)),
        emulatorToH3: median(results.map(([, h3, emulator]) => emulator / h3)),
      });
    }
    return rows;
  } finally {
    await Promise.all([stop(h3.child), stop(node.child), stop(emulator.child)]);
  }
}
