import { createServer } from 'node:http';

/** A receiver on 127.0.0.1 that answers 200 and counts. */
export async function startReceiver() {
  let count = 0;
  let onCount = () => {};
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200).end();
      count++;
      onCount();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    count: () => count,
    waitFor: (target, timeoutMs) =>
      new Promise((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        onCount = () => {
          if (count >= target) {
            clearTimeout(timer);
            resolve();
          }
        };
        onCount();
      }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const json = { 'content-type': 'application/json' };

/** Events delivered per second: `events` sandbox events fanned out to `endpoints` endpoints. */
export async function emulatorFanOut({ baseUrl, controlUrl, key, endpoints, events }) {
  const receiver = await startReceiver();
  const app = (await (await fetch(`${controlUrl}/applications?limit=1`)).json()).data[0];
  for (let index = 0; index < endpoints; index++) {
    await fetch(`${controlUrl}/applications/${app.id}/endpoints`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ url: receiver.url, events: ['webhook.test'] }),
    });
  }
  const started = performance.now();
  for (let index = 0; index < events; index++) {
    await fetch(`${baseUrl}/sandbox/events`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${key}` },
      body: JSON.stringify({ type: 'webhook.test' }),
    });
  }
  await receiver.waitFor(events * endpoints, 30_000);
  const seconds = (performance.now() - started) / 1000;
  const delivered = receiver.count();
  await receiver.close();
  return { delivered, perSecond: delivered / seconds };
}

/** Baseline: the same number of POSTs of a ~400-byte body, straight from fetch, 8 at a time. */
export async function bareFanOut(total) {
  const receiver = await startReceiver();
  const body = JSON.stringify({ pad: 'x'.repeat(400) });
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < total) {
      next++;
      const response = await fetch(receiver.url, { method: 'POST', headers: json, body });
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const seconds = (performance.now() - started) / 1000;
  await receiver.close();
  return { perSecond: total / seconds };
}
