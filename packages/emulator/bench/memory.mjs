import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

/** Resident set size of a process in bytes (Linux /proc, else ps). */
export function rssOf(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (match) return Number(match[1]) * 1024;
  } catch {}
  return (
    Number(
      execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
        .toString()
        .trim(),
    ) * 1024
  );
}

/** Sends `amount` accepted template messages (unique Idempotency-Keys), 10 connections. */
export async function sendMany({ baseUrl, key, amount }) {
  const url = new URL(baseUrl);
  let sequence = 0;
  const result = await autocannon({
    url: url.origin,
    connections: 10,
    amount,
    requests: [
      {
        method: 'POST',
        path: `${url.pathname}/messages`,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
          to: '+33612345678',
          type: 'template',
          template: { name: 'order_confirmation', language: 'fr', variables: ['Ana', 'A-1042'] },
        }),
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, 'idempotency-key': `memory-${++sequence}` },
        }),
      },
    ],
  });
  return { accepted: result['2xx'], refused: result.non2xx + result.errors };
}
