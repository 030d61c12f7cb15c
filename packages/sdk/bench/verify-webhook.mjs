// verifyWebhook throughput against the floor and three libraries, sequential calls, one run.
// Floor = createHmac with a KeyObject + hex + timingSafeEqual + JSON.parse: the least work a
// correct verifier can do on Node.
import { createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';
import { signWebhook, verifyWebhook } from '@parley/sdk/webhooks';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { Webhook as SvixWebhook } from 'svix';

const SECRET = 'whsec_4eC39HqLyjWDarjtT1zdp7dc4eC39HqL';
const ID = 'evt_0123456789abcdef0123456789abcdef';
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);

function eventBody(bytes) {
  const event = {
    api_version: '2026-10-14',
    created_at: '2026-10-14T09:30:00Z',
    data: { message: '' },
    id: ID,
    livemode: false,
    type: 'webhook.test',
  };
  const overhead = JSON.stringify(event).length;
  event.data.message = 'x'.repeat(Math.max(0, bytes - overhead));
  return JSON.stringify(event);
}

async function candidates(body) {
  const timestamp = Math.floor(Date.now() / 1000);
  const parleyHeaders = await signWebhook({ payload: body, secret: SECRET, id: ID, timestamp });

  const floorKey = createSecretKey(Buffer.from(SECRET, 'utf8'));
  const floorSignature = Buffer.from(parleyHeaders['parley-signature'].slice(3));
  const floorPrefix = `${ID}.${timestamp}.`;

  const stripe = new Stripe('sk_test_bench');
  const stripeSecret = 'whsec_bench';
  const stripeHeader = stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: stripeSecret,
    timestamp,
  });

  const base64Secret = `whsec_${randomBytes(24).toString('base64')}`;
  const svix = new SvixWebhook(base64Secret);
  const svixHeaders = {
    'svix-id': 'msg_1',
    'svix-timestamp': String(timestamp),
    'svix-signature': svix.sign('msg_1', new Date(timestamp * 1000), body),
  };
  const standard = new StandardWebhook(base64Secret);
  const standardHeaders = {
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standard.sign('msg_1', new Date(timestamp * 1000), body),
  };

  return {
    floor: () => {
      const expected = createHmac('sha256', floorKey).update(floorPrefix).update(body).digest('hex');
      if (!timingSafeEqual(Buffer.from(expected), floorSignature)) throw new Error('floor mismatch');
      return JSON.parse(body);
    },
    '@parley/sdk verifyWebhook': () => verifyWebhook(body, parleyHeaders, SECRET),
    'stripe constructEvent': () => stripe.webhooks.constructEvent(body, stripeHeader, stripeSecret),
    'svix verify': () => svix.verify(body, svixHeaders),
    'standardwebhooks verify': () => standard.verify(body, standardHeaders),
  };
}

async function opsPerSecond(task) {
  let operations = 0;
  const started = performance.now();
  const until = started + ROUND_MS;
  while (performance.now() < until) {
    for (let batch = 0; batch < 64; batch++) {
      const result = task();
      if (result instanceof Promise) await result;
    }
    operations += 64;
  }
  return (operations * 1000) / (performance.now() - started);
}

export async function benchVerify() {
  const rows = [];
  for (const size of [1024, 64 * 1024]) {
    const tasks = await candidates(eventBody(size));
    for (const task of Object.values(tasks)) await task(); // sanity: every verifier accepts its delivery
    const samples = Object.fromEntries(Object.keys(tasks).map((name) => [name, []]));
    const entries = Object.entries(tasks);
    for (let round = 0; round < ROUNDS; round++) {
      // Short interleaved rounds, each starting with another candidate, so machine noise and
      // position effects hit every candidate alike; the median of each is kept.
      for (let index = 0; index < entries.length; index++) {
        const [name, task] = entries[(index + round) % entries.length];
        samples[name].push(await opsPerSecond(task));
      }
    }
    const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const floor = median(samples.floor);
    for (const [name, values] of Object.entries(samples)) {
      const ops = median(values);
      rows.push({
        body: `${size / 1024} KB`,
        verifier: name,
        'ops/s': Math.round(ops),
        'ratio to floor': (ops / floor).toFixed(2),
      });
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchVerify());
