import { canonicalJson, type WebhookEvent } from '@parley/sdk';
import type * as Webhooks from '@parley/sdk/webhooks';
import { TEST_SECRET, webhookEvent } from '@parley/test-utils';

// Genuine webhook deliveries for the verifyWebhook hardening test: real event bodies signed as
// Parley signs them, from a seeded generator so that a failure replays.

/** Replays a run: HARDENING_SEED=<seed> pnpm test:hardening. */
export const SEED = Number(process.env.HARDENING_SEED ?? 20_261_123);
/** The receiver's clock in every verification (ms), and in Unix seconds. */
export const NOW = 1_790_000_000_000;
export const NOW_SECONDS = NOW / 1000;
/** The endpoint's secret, and the one it replaced (still signed with during a rotation). */
export const CURRENT = TEST_SECRET;
export const PREVIOUS = 'whsec_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp';

/** mulberry32: a small seeded generator, so a failure replays from HARDENING_SEED. */
export function randomFrom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (below: number) => Math.floor(next() * below);
  return {
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)]!,
    hex: (length: number) => Array.from({ length }, () => int(16).toString(16)).join(''),
  };
}
export type Random = ReturnType<typeof randomFrom>;

const TEXTS = ['Café ✓', 'Grüße — 你好 👋', 'مرحبا é', 'e\u0301 naïve', 'Zoë: "quoted" \\ back\nslash'];

/** A real event body of each type, as the emulator sends it (canonical JSON, non-ASCII text). */
export function eventBody(random: Random, index: number): { id: string; body: string } {
  const id = `evt_${random.hex(32)}`;
  const at = new Date(NOW - random.int(86_400_000)).toISOString();
  const text = `${random.pick(TEXTS)} #${index}`;
  const message = {
    id: `msg_${random.hex(24)}`,
    object: 'message',
    direction: 'inbound',
    connection_id: `con_${random.hex(24)}`,
    to: '+15555550100',
    from: '+15555550199',
    type: 'text',
    text,
    template: null,
    status: 'received',
    error: null,
    client_reference: null,
    created_at: at,
    updated_at: at,
    livemode: false,
  };
  const connection = {
    object: 'connection',
    id: `con_${random.hex(24)}`,
    status: 'active',
    phone_number: '+15555550100',
    name: text,
    quality_rating: 'GREEN',
    waba_id: random.hex(15),
    livemode: true,
    created_at: at,
  };
  const [type, data] = random.pick([
    ['message.received', { message }],
    ['message.status_updated', { message: { ...message, direction: 'outbound', status: 'delivered' } }],
    ['connection.connected', { connection }],
    ['connection.disconnected', { connection: { ...connection, status: 'disconnected' } }],
    ['developer.application.created', { application_id: `app_${random.hex(24)}`, environment: 'live' }],
    ['webhook.test', { message: text }],
  ] as const);
  return {
    id,
    body: canonicalJson(webhookEvent({ id, type, data: data as WebhookEvent['data'], created_at: at })),
  };
}

/** A delivery as Parley signs it. */
export interface Genuine {
  id: string;
  body: string;
  timestamp: number;
  headers: Webhooks.SignedWebhookHeaders;
}

/** What one verifyWebhook call receives, malformed or not. */
export interface Delivery {
  payload: unknown;
  headers: unknown;
  secret: string | readonly string[];
}

/** signWebhook of the module copy in use. */
export type Sign = typeof Webhooks.signWebhook;
/** Why verifyWebhook refused. */
export type Reason = Webhooks.WebhookVerificationReason;

const encoder = new TextEncoder();
/** The genuine delivery as verifyWebhook receives it, with `change` applied. */
export const delivered = (genuine: Genuine, change: Partial<Delivery> = {}): Delivery => ({
  payload: genuine.body,
  headers: { ...genuine.headers },
  secret: CURRENT,
  ...change,
});
/** The hex of the first (current secret's) v1 signature. */
export const hexOf = (genuine: Genuine) => genuine.headers['parley-signature'].slice(3, 67);
/** The same bytes as a Uint8Array, a Buffer or an ArrayBuffer. */
export const rawForms = (random: Random, bytes: Uint8Array) =>
  random.pick([
    bytes,
    Buffer.from(bytes),
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
  ]);

/** Genuine deliveries of every event type; a quarter signed during a rotation (new secret first). */
export async function genuineDeliveries(sign: Sign, random: Random, count: number): Promise<Genuine[]> {
  const deliveries: Genuine[] = [];
  for (let index = 0; index < count; index++) {
    const { id, body } = eventBody(random, index);
    const timestamp = NOW_SECONDS - random.int(200);
    const secret = index % 4 === 0 ? [CURRENT, PREVIOUS] : CURRENT;
    deliveries.push({ id, body, timestamp, headers: await sign({ payload: body, secret, id, timestamp }) });
  }
  return deliveries;
}

/** Changes that keep a delivery genuine, so the mutation count is not met by refusing everything. */
export function equivalent(genuine: Genuine, random: Random): Delivery {
  const signature = genuine.headers['parley-signature'];
  const withSignature = (value: unknown) =>
    delivered(genuine, { headers: { ...genuine.headers, 'parley-signature': value } });
  const variants: (() => Delivery)[] = [
    () => {
      const recased = Object.entries(genuine.headers).map(([name, value]) => [
        random.pick([name, name.toUpperCase(), name.replace(/\b\w/g, (first) => first.toUpperCase())]),
        value,
      ]);
      const payload = rawForms(random, encoder.encode(genuine.body));
      return delivered(genuine, { payload, headers: Object.fromEntries(recased) });
    },
    () => delivered(genuine, { headers: new Headers(genuine.headers) }),
    () => withSignature(`v1=${hexOf(genuine).toUpperCase()}`),
    () => withSignature([`v1=${random.hex(64)}`, `v2=${random.hex(64)}`, signature]),
    () => withSignature(`${signature}, ${signature}`),
    () => delivered(genuine, { secret: [random.pick([PREVIOUS, `whsec_${random.hex(32)}`]), CURRENT] }),
  ];
  return random.pick(variants)();
}
