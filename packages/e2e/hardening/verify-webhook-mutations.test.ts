import type * as Webhooks from '@parley/sdk/webhooks';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { recordFigure } from './_figures';
import {
  CURRENT,
  type Delivery,
  delivered,
  equivalent,
  genuineDeliveries,
  NOW,
  PREVIOUS,
  type Reason,
  randomFrom,
  SEED,
} from './_webhook-deliveries';
import { HEADER_REASONS, MUTATIONS } from './_webhook-mutations';

// verifyWebhook against forgeries: genuine deliveries, each mutated once, must all be refused
// with the reason the mutation deserves; and no malformed input may escape as another error.
// Both HMAC implementations: the `node` build's node:crypto and everyone else's Web Crypto.

const HMAC_MODULE = '../../sdk/src/webhooks/_hmac';
const implementations = {
  'node:crypto': () => import('../../sdk/src/webhooks/_hmac-node'),
  'Web Crypto': () => import('../../sdk/src/webhooks/_hmac-web'),
};
type Implementation = keyof typeof implementations;

/** A fresh copy of `@parley/sdk/webhooks` on `implementation`, and a count of its HMAC checks. */
async function webhooksOn(implementation: Implementation) {
  const hmacChecks = { count: 0 };
  vi.resetModules();
  vi.doMock(HMAC_MODULE, async () => {
    const hmac = await implementations[implementation]();
    return {
      ...hmac,
      signatureMatches: (...args: Parameters<typeof hmac.signatureMatches>) => {
        hmacChecks.count++;
        // The two modules type a signature differently (bytes or hex); each gets back its own.
        return (hmac.signatureMatches as (...all: typeof args) => unknown)(...args);
      },
    };
  });
  const webhooks = await import('@parley/sdk/webhooks');
  vi.doUnmock(HMAC_MODULE);
  return { webhooks, hmacChecks };
}

const DELIVERIES = 20_000;
const ACCEPTED = Symbol('accepted');
const REASONS: readonly string[] = [
  'missing_header',
  'invalid_timestamp',
  'timestamp_out_of_range',
  'invalid_signature_header',
  'signature_mismatch',
  'invalid_payload',
] satisfies Reason[];

/** verifyWebhook's outcome: ACCEPTED, or what it rejected with. */
function verdict(webhooks: typeof Webhooks, delivery: Delivery): Promise<unknown> {
  return webhooks
    .verifyWebhook(delivery.payload as never, delivery.headers as never, delivery.secret, { now: NOW })
    .then(
      () => ACCEPTED,
      (error: unknown) => error,
    );
}

/** The error's reason when it is exactly this copy's WebhookVerificationError, else a description. */
function reasonOf(webhooks: typeof Webhooks, error: unknown): string {
  if (error === ACCEPTED) return 'ACCEPTED';
  if (error != null && Object.getPrototypeOf(error) === webhooks.WebhookVerificationError.prototype) {
    return (error as Webhooks.WebhookVerificationError).reason;
  }
  return `not a WebhookVerificationError: ${String(error)}`;
}

const count = (tally: Record<string, number>, key: string) => {
  tally[key] = (tally[key] ?? 0) + 1;
};
const summary = (tally: Record<string, number>) =>
  Object.entries(tally)
    .sort(([, left], [, right]) => right - left)
    .map(([key, value]) => `${key} ${value.toLocaleString('en')}`)
    .join(', ');

describe('verifyWebhook under attack', () => {
  it(`refuses ${DELIVERIES.toLocaleString('en')} mutated genuine deliveries for the reason each deserves, on both HMAC implementations`, async () => {
    const { webhooks: signer } = await webhooksOn('node:crypto');
    const random = randomFrom(SEED);
    const genuine = await genuineDeliveries(signer.signWebhook, random, DELIVERIES);
    const cases: { kind: string; delivery: Delivery; reason: Reason }[] = [];
    for (const [index, delivery] of genuine.entries()) {
      const mutation = MUTATIONS[index % MUTATIONS.length]!;
      const other = genuine[(index + 1 + random.int(DELIVERIES - 1)) % DELIVERIES]!;
      const mutated = await mutation.make(delivery, random, other, signer.signWebhook);
      const reason = typeof mutation.reason === 'string' ? mutation.reason : mutation.reason(mutated);
      cases.push({ kind: mutation.kind, delivery: mutated, reason });
    }
    const figures: string[] = [];
    for (const implementation of Object.keys(implementations) as Implementation[]) {
      const { webhooks, hmacChecks } = await webhooksOn(implementation);
      const started = performance.now();
      const genuineRefused: string[] = [];
      for (const [index, delivery] of genuine.entries()) {
        const reason = reasonOf(webhooks, await verdict(webhooks, delivered(delivery)));
        if (reason !== 'ACCEPTED') genuineRefused.push(reason);
        // A quarter is enough for the equivalent forms, and keeps the file well under 30 s.
        if (index % 4 > 0) continue;
        const control = reasonOf(webhooks, await verdict(webhooks, equivalent(delivery, random)));
        if (control !== 'ACCEPTED') genuineRefused.push(`equivalent: ${control}`);
      }
      const wrong: string[] = [];
      const reasons: Record<string, number> = {};
      for (const { kind, delivery, reason } of cases) {
        const got = reasonOf(webhooks, await verdict(webhooks, delivery));
        count(reasons, got);
        if (got !== reason) wrong.push(`${kind}: expected ${reason}, got ${got}`);
      }
      const elapsed = performance.now() - started;
      expect(genuineRefused, implementation).toEqual([]);
      expect(wrong.slice(0, 10), implementation).toEqual([]);
      expect(reasons.ACCEPTED ?? 0).toBe(0);
      expect(hmacChecks.count).toBeGreaterThanOrEqual(DELIVERIES * 1.5);
      figures.push(
        `${implementation}: 0 of ${cases.length.toLocaleString('en')} mutated accepted (${summary(reasons)}); ` +
          `${DELIVERIES.toLocaleString('en')} genuine + ${(DELIVERIES / 4).toLocaleString('en')} equivalent controls all accepted; ${Math.round(elapsed)} ms`,
      );
    }
    recordFigure({
      test: 'verifyWebhook: mutated genuine deliveries',
      load: `${DELIVERIES.toLocaleString('en')} signed event bodies of all 6 types, each mutated once (${MUTATIONS.length} kinds in turn: body bytes, timestamp text, signature, event id, headers, secret, payload type; seed ${SEED}), verified by node:crypto and by Web Crypto`,
      proved:
        'No tampered delivery is accepted and each is refused for its own reason, while every genuine one (also re-cased, re-encoded as bytes or Headers, or beside other v1 values) is accepted',
      figures: figures.join('; '),
    });
  });

  it('rejects every malformed input with a WebhookVerificationError, never another error, never an event', async () => {
    const { webhooks: signer } = await webhooksOn('node:crypto');
    const genuine = await genuineDeliveries(signer.signWebhook, randomFrom(SEED + 1), 40);
    const names = Object.keys(HEADER_REASONS);
    const headerName = fc.constantFrom(...names).chain((name) =>
      fc.constantFrom(
        name,
        name.toUpperCase(),
        name.replace(/\b\w/g, (first) => first.toUpperCase()),
      ),
    );
    const value = fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.array(fc.string(), { maxLength: 3 }));
    // Well-formed but unsigned values, so that runs also reach the timestamp window and the HMAC.
    const plausible = fc.oneof(
      fc.integer({ min: NOW / 1000 - 300, max: NOW / 1000 + 300 }).map(String),
      fc.stringMatching(/^v1=[\da-f]{64}$/),
      fc.stringMatching(/^evt_[\da-f]{32}$/),
    );
    const payload = fc.oneof(
      fc.jsonValue(),
      fc.string(),
      fc.uint8Array(),
      fc.uint8Array().map((bytes) => bytes.buffer),
      fc.constant(undefined),
      fc.constantFrom(...genuine.map((delivery) => delivery.body)),
    );
    const arbitraryInput = fc.record({
      payload,
      headers: fc.oneof(fc.jsonValue(), fc.dictionary(fc.oneof(headerName, fc.string()), value)),
    });
    // A signed delivery with some headers replaced by arbitrary values, and its body or another.
    const nearGenuineInput = fc
      .record({
        index: fc.nat(genuine.length - 1),
        overrides: fc.dictionary(headerName, fc.oneof(value, plausible), { minKeys: 1 }),
        ownBody: fc.boolean(),
        payload,
      })
      .map(({ index, overrides, ownBody, payload: otherPayload }) => {
        const delivery = genuine[index]!;
        const headers: Record<string, unknown> = { ...delivery.headers };
        for (const [name, override] of Object.entries(overrides)) {
          delete headers[name.toLowerCase()];
          headers[name] = override;
        }
        return { payload: ownBody ? delivery.body : otherPayload, headers };
      });
    const runs = 2_500;
    const figures: string[] = [];
    for (const implementation of Object.keys(implementations) as Implementation[]) {
      const { webhooks } = await webhooksOn(implementation);
      const reasons: Record<string, number> = {};
      const started = performance.now();
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(arbitraryInput, nearGenuineInput, nearGenuineInput),
          async ({ payload: body, headers }) => {
            const reason = reasonOf(
              webhooks,
              await verdict(webhooks, { payload: body, headers, secret: [CURRENT, PREVIOUS] }),
            );
            expect(REASONS).toContain(reason);
            count(reasons, reason);
          },
        ),
        { seed: SEED, numRuns: runs },
      );
      figures.push(
        `${implementation}: ${runs.toLocaleString('en')} runs, all refused (${summary(reasons)}) in ${Math.round(performance.now() - started)} ms`,
      );
    }
    recordFigure({
      test: 'verifyWebhook: malformed input property',
      load: `fast-check, ${runs.toLocaleString('en')} runs per HMAC implementation: header records with any JSON values in any case, headers of any JSON type, payloads of any type, near-genuine deliveries with overridden headers (seed ${SEED})`,
      proved:
        'verifyWebhook never resolves on malformed input and rejects only with WebhookVerificationError (never a TypeError or another class)',
      figures: figures.join('; '),
    });
  });
});
