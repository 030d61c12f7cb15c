import {
  CURRENT,
  type Delivery,
  delivered,
  type Genuine,
  hexOf,
  NOW_SECONDS,
  PREVIOUS,
  type Random,
  type Reason,
  rawForms,
  type Sign,
} from './_webhook-deliveries';

// The ways the verifyWebhook hardening test tampers with a genuine delivery, each with the reason
// it must be refused for. Every mutation changes what was signed, or how, so none may pass.

/** One way to tamper with a genuine delivery, and the reason it must be refused for. */
export interface Mutation {
  kind: string;
  reason: Reason | ((delivery: Delivery) => Reason);
  make(genuine: Genuine, random: Random, other: Genuine, sign: Sign): Delivery | Promise<Delivery>;
}

const encoder = new TextEncoder();
const withHeader = (genuine: Genuine, name: string, value: unknown) =>
  delivered(genuine, { headers: { ...genuine.headers, [name]: value } });
/** The body's bytes changed by `edit` (a copy), handed over as one of the raw forms. */
const editBytes = (genuine: Genuine, random: Random, edit: (bytes: number[]) => void) => {
  const bytes = [...encoder.encode(genuine.body)];
  edit(bytes);
  return delivered(genuine, { payload: rawForms(random, Uint8Array.from(bytes)) });
};
const NOT_TEXT = [42, 0, true, {}, { value: 'x' }, [1], ['v1=', 2], [null], [['nested']]];
/** Each webhook header, and the reason a value of it that is not text is refused for. */
export const HEADER_REASONS: Record<string, Reason> = {
  'parley-event-id': 'signature_mismatch', // an id that is not text was never signed
  'parley-timestamp': 'invalid_timestamp',
  'parley-signature': 'invalid_signature_header',
};
const changedHexDigit = (random: Random, digit: string) =>
  random.pick([...'0123456789abcdef'.replace(digit, '')]);

/** Every mutation kind; the test applies one to each genuine delivery in turn. */
export const MUTATIONS: Mutation[] = [
  // The body.
  {
    kind: 'body: flip a bit',
    reason: 'signature_mismatch',
    make: (genuine, random) =>
      editBytes(genuine, random, (bytes) => {
        bytes[random.int(bytes.length)]! ^= 1 << random.int(8);
      }),
  },
  {
    kind: 'body: insert a byte',
    reason: 'signature_mismatch',
    make: (genuine, random) =>
      editBytes(genuine, random, (bytes) => bytes.splice(random.int(bytes.length + 1), 0, random.int(256))),
  },
  {
    kind: 'body: delete a byte',
    reason: 'signature_mismatch',
    make: (genuine, random) =>
      editBytes(genuine, random, (bytes) => bytes.splice(random.int(bytes.length), 1)),
  },
  {
    kind: 'body: truncate',
    reason: 'signature_mismatch',
    make: (genuine, random) =>
      editBytes(genuine, random, (bytes) => {
        bytes.length = random.int(bytes.length);
      }),
  },
  {
    kind: 'body: trailing whitespace',
    reason: 'signature_mismatch',
    make: (genuine, random) =>
      delivered(genuine, { payload: genuine.body + random.pick([' ', '\n', '\r\n', '\t', '\0']) }),
  },
  {
    kind: 'body: re-serialised',
    reason: 'signature_mismatch',
    make: (genuine, random) => {
      const event = JSON.parse(genuine.body) as Record<string, unknown>;
      const reordered = JSON.stringify(Object.fromEntries(Object.entries(event).reverse()));
      return delivered(genuine, {
        payload: random.pick([reordered, JSON.stringify(event, null, random.pick([1, 2, '\t']))]),
      });
    },
  },
  {
    kind: 'body: re-encoded by a proxy',
    reason: 'signature_mismatch',
    make: (genuine, random) => {
      const variants = [
        genuine.body.normalize('NFD'),
        Buffer.from(genuine.body).toString('latin1'),
        `\ufeff${genuine.body}`,
      ];
      return delivered(genuine, {
        payload: random.pick(variants.filter((variant) => variant !== genuine.body)),
      });
    },
  },
  {
    kind: 'body: another delivery',
    reason: 'signature_mismatch',
    make: (genuine, _random, other) => delivered(genuine, { payload: other.body }),
  },
  // The timestamp text.
  {
    kind: 'timestamp: leading zeros',
    reason: 'signature_mismatch',
    make: (genuine, random) =>
      withHeader(genuine, 'parley-timestamp', `${'0'.repeat(1 + random.int(2))}${genuine.timestamp}`),
  },
  {
    kind: 'timestamp: moved within the window',
    reason: 'signature_mismatch',
    make: (genuine, random) =>
      withHeader(
        genuine,
        'parley-timestamp',
        `${genuine.timestamp + random.pick([-1, 1]) * (1 + random.int(60))}`,
      ),
  },
  {
    kind: 'timestamp: spaces',
    reason: 'invalid_timestamp',
    make: (genuine, random) => {
      const text = `${genuine.timestamp}`;
      return withHeader(
        genuine,
        'parley-timestamp',
        random.pick([` ${text}`, `${text} `, `${text.slice(0, 5)} ${text.slice(5)}`, `\t${text}`]),
      );
    },
  },
  {
    kind: 'timestamp: sign',
    reason: 'invalid_timestamp',
    make: (genuine, random) =>
      withHeader(genuine, 'parley-timestamp', `${random.pick(['+', '-'])}${genuine.timestamp}`),
  },
  {
    kind: 'timestamp: other notation',
    reason: 'invalid_timestamp',
    make: (genuine, random) => {
      const fullWidth = [...`${genuine.timestamp}`]
        .map((digit) => String.fromCharCode(0xff10 + +digit))
        .join('');
      const notations = [
        `${genuine.timestamp}.0`,
        `${genuine.timestamp / 1e9}e9`,
        `0x${genuine.timestamp.toString(16)}`,
        fullWidth,
      ];
      return withHeader(genuine, 'parley-timestamp', random.pick(notations));
    },
  },
  {
    kind: 'timestamp: milliseconds or padded past 12 digits',
    reason: 'invalid_timestamp',
    make: (genuine, random) =>
      withHeader(
        genuine,
        'parley-timestamp',
        random.pick([`${genuine.timestamp}000`, `000${genuine.timestamp}`]),
      ),
  },
  {
    kind: 'replay outside the window (signed then)',
    reason: 'timestamp_out_of_range',
    make: async (genuine, random, _other, sign) => {
      const timestamp = NOW_SECONDS + random.pick([-1, 1]) * (301 + random.int(10_000_000));
      return delivered(genuine, {
        headers: await sign({ payload: genuine.body, secret: CURRENT, id: genuine.id, timestamp }),
      });
    },
  },
  // The signature.
  {
    kind: 'signature: one hex digit changed',
    reason: 'signature_mismatch',
    make: (genuine, random) => {
      const hex = hexOf(genuine);
      const at = random.int(64);
      return withHeader(
        genuine,
        'parley-signature',
        `v1=${hex.slice(0, at)}${changedHexDigit(random, hex[at]!)}${hex.slice(at + 1)}`,
      );
    },
  },
  {
    kind: 'signature: truncated',
    reason: 'invalid_signature_header',
    make: (genuine, random) =>
      withHeader(genuine, 'parley-signature', `v1=${hexOf(genuine).slice(0, random.int(64))}`),
  },
  {
    kind: 'signature: extended',
    reason: 'invalid_signature_header',
    make: (genuine, random) =>
      withHeader(genuine, 'parley-signature', `v1=${hexOf(genuine)}${random.hex(1 + random.int(4))}`),
  },
  {
    kind: 'signature: hex duplicated',
    reason: 'invalid_signature_header',
    make: (genuine) => withHeader(genuine, 'parley-signature', `v1=${hexOf(genuine)}${hexOf(genuine)}`),
  },
  {
    kind: 'signature: scheme re-cased or renamed',
    reason: 'invalid_signature_header',
    make: (genuine, random) =>
      withHeader(
        genuine,
        'parley-signature',
        `${random.pick(['V1', 'v2', 'v0', 'v10', 'sha256', ''])}=${hexOf(genuine)}`,
      ),
  },
  {
    kind: 'signature: bad separators',
    reason: 'invalid_signature_header',
    make: (genuine, random) => {
      const hex = hexOf(genuine);
      const at = 1 + random.int(63);
      const values = [
        `v1=${hex};`,
        `v1=${hex},`,
        `v1=${hex} v1=${hex}`,
        `v1=${hex.slice(0, at)} ${hex.slice(at)}`,
        ` v1=${hex}`,
      ];
      return withHeader(genuine, 'parley-signature', random.pick(values));
    },
  },
  {
    kind: 'signature: another delivery or random',
    reason: 'signature_mismatch',
    make: (genuine, random, other) =>
      withHeader(
        genuine,
        'parley-signature',
        random.pick([other.headers['parley-signature'], `v1=${random.hex(64)}`, `v1=${'0'.repeat(64)}`]),
      ),
  },
  // The event id.
  {
    kind: 'event id: another delivery',
    reason: 'signature_mismatch',
    make: (genuine, _random, other) => withHeader(genuine, 'parley-event-id', other.id),
  },
  {
    kind: 'event id: re-cased, padded or cut',
    reason: 'signature_mismatch',
    make: (genuine, random) =>
      withHeader(
        genuine,
        'parley-event-id',
        random.pick([
          genuine.id.toUpperCase(),
          `${genuine.id} `,
          genuine.id.slice(0, 1 + random.int(genuine.id.length - 1)),
        ]),
      ),
  },
  // Headers present or not, text or not.
  {
    kind: 'headers dropped',
    reason: 'missing_header',
    make: (genuine, random) => {
      const headers: Record<string, unknown> = { ...genuine.headers };
      const names = Object.keys(headers);
      const dropped = names.filter(() => random.int(2) === 0);
      for (const name of dropped.length > 0 ? dropped : [random.pick(names)]) delete headers[name];
      return delivered(genuine, { headers });
    },
  },
  {
    kind: 'header empty or null',
    reason: 'missing_header',
    make: (genuine, random) =>
      withHeader(
        genuine,
        random.pick(Object.keys(HEADER_REASONS)),
        random.pick(['', [], [''], null, undefined]),
      ),
  },
  {
    kind: 'header not text',
    reason: (delivery) => HEADER_REASONS[notTextHeader(delivery)]!,
    make: (genuine, random) =>
      withHeader(genuine, random.pick(Object.keys(HEADER_REASONS)), random.pick(NOT_TEXT)),
  },
  // The secret.
  {
    kind: 'verified with another secret',
    reason: 'signature_mismatch',
    make: (genuine, random) => {
      const secret = random.pick([
        PREVIOUS,
        `whsec_${random.hex(32)}`,
        `${CURRENT}\n`,
        ` ${CURRENT}`,
        CURRENT.toUpperCase(),
        CURRENT.slice(6),
        [PREVIOUS, `whsec_${random.hex(32)}`],
      ]);
      // Only the current secret's v1 is kept: during a rotation the previous secret is genuinely valid.
      return delivered(genuine, {
        secret,
        headers: { ...genuine.headers, 'parley-signature': `v1=${hexOf(genuine)}` },
      });
    },
  },
  {
    kind: 'signed with a retired secret',
    reason: 'signature_mismatch',
    make: async (genuine, _random, _other, sign) =>
      delivered(genuine, {
        headers: await sign({
          payload: genuine.body,
          secret: PREVIOUS,
          id: genuine.id,
          timestamp: genuine.timestamp,
        }),
      }),
  },
  {
    kind: 'tampered and re-signed by an attacker',
    reason: 'signature_mismatch',
    make: async (genuine, random, _other, sign) => {
      const payload = genuine.body
        .replace('"livemode":false', '"livemode":true')
        .replace('"type":"', '"type":"x');
      const secret = `whsec_${random.hex(32)}`;
      return delivered(genuine, {
        payload,
        headers: await sign({ payload, secret, id: genuine.id, timestamp: genuine.timestamp }),
      });
    },
  },
  // The payload's type.
  {
    kind: 'payload not a raw body',
    reason: 'invalid_payload',
    make: (genuine, random) =>
      delivered(genuine, {
        payload: random.pick([
          JSON.parse(genuine.body),
          null,
          undefined,
          42,
          true,
          [genuine.body],
          new Uint16Array(8),
        ]),
      }),
  },
];

/** The header whose value is not text in a 'header not text' delivery. */
function notTextHeader(delivery: Delivery): string {
  const headers = delivery.headers as Record<string, unknown>;
  return Object.keys(HEADER_REASONS).find((name) => typeof headers[name] !== 'string')!;
}
