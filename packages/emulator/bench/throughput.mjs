import autocannon from 'autocannon';
import { cpuNs } from './_processes.mjs';

const CONNECTION_ID = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
const SEND_BODY = JSON.stringify({
  connection_id: CONNECTION_ID,
  to: '+33612345678',
  type: 'template',
  template: { name: 'order_confirmation', language: 'fr', variables: ['Ana', 'A-1042'] },
});

/**
 * The number in each send's Idempotency-Key, counted across every run of this process: counted per
 * run, each run after the first on the same emulator sent the keys of the runs before it again, and
 * most of its sends were idempotent replays (no new message), not the new sends the row measures.
 */
let sequence = 0;

/** Concurrent connections of a load run: issue 23 measures with 50. */
export const CONNECTIONS = 50;

/** One autocannon run; figures in req/s and ms. */
export async function load({ baseUrl, key, method, seconds, connections = CONNECTIONS }) {
  const url = new URL(baseUrl);
  const path = url.pathname + (method === 'GET' ? '/status' : '/messages');
  const result = await autocannon({
    url: `${url.origin}`,
    connections,
    duration: seconds,
    requests: [
      {
        method,
        path,
        headers: {
          authorization: `Bearer ${key}`,
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
        ...(method === 'POST' ? { body: SEND_BODY } : {}),
        setupRequest: (request) =>
          method === 'POST'
            ? {
                ...request,
                headers: { ...request.headers, 'idempotency-key': `bench-${process.pid}-${++sequence}` },
              }
            : request,
      },
    ],
  });
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    mean: result.latency.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors,
  };
}

/**
 * One {@link load} run on a server process of `_processes.mjs`: its requests per CPU second of that
 * process (`judged`; its req/s where `/proc` is missing), its req/s (`wall`) and its refusals (`bad`).
 */
export async function loadPerCpuSecond(server, { key, method, seconds }) {
  const before = cpuNs(server.child.pid);
  const result = await load({ baseUrl: server.ready.base_url, key, method, seconds });
  const cpuSeconds = (cpuNs(server.child.pid) - before) / 1e9;
  return {
    judged: Number.isNaN(cpuSeconds) ? result.rps : result.requests / cpuSeconds,
    wall: result.rps,
    bad: result.bad,
  };
}

/** The emulator's answers to both calls, so the baseline answers the same JSON documents. */
export async function answerBodies(baseUrl, key) {
  const headers = { authorization: `Bearer ${key}` };
  const status = await (await fetch(`${baseUrl}/status`, { headers })).text();
  const message = await (
    await fetch(`${baseUrl}/messages`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': 'size-probe' },
      body: SEND_BODY,
    })
  ).text();
  return { status, message };
}
