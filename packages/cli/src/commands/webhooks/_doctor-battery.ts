import type { WebhookEvent } from '@parley/sdk';
import { receivedEvent, statusEvent, strangerSecret } from './_doctor-events';
import { type Grade, gradeAccepted, gradeRefused, gradeSkipped, gradeTimed } from './_doctor-grades';
import { type DeliverFunction, type DoctorAnswer, formatSeconds } from './_doctor-post';

/** The cases, in the order they run (the duplicate and the stale status need what ran before). */
export const DOCTOR_CASES = [
  'valid',
  'duplicate',
  'bad_signature',
  'stale_timestamp',
  'tampered_body',
  'rotation',
  'out_of_order',
  'answer_time',
] as const;

/** One of {@link DOCTOR_CASES}. */
export type DoctorCaseName = (typeof DOCTOR_CASES)[number];

/** One graded case of the battery. */
export interface DoctorCase extends Grade {
  name: DoctorCaseName;
  /** What was sent, for the report. */
  title: string;
  /** What a right receiver does. */
  expected: string;
  deliveries: DoctorAnswer[];
}

// Parley's receivers refuse timestamps more than 300 s away (docs/webhooks.md); twice that leaves
// no doubt, whatever the tolerance a receiver chose below the default.
const STALE_SECONDS = 600;

/**
 * Fires the battery at a receiver through `deliver`, one delivery at a time, and grades each
 * case from the answers. `secret` is the receiver's; the forged cases sign with secrets nobody holds.
 */
export async function runBattery(
  deliver: DeliverFunction,
  secret: string,
  timeoutMs: number,
): Promise<DoctorCase[]> {
  const yours = { secrets: [secret] };
  const cases: DoctorCase[] = [];
  const record = (
    name: DoctorCaseName,
    title: string,
    expected: string,
    deliveries: DoctorAnswer[],
    grade: Grade,
  ) => cases.push({ name, title, expected, deliveries, ...grade });

  const first = receivedEvent();
  const valid = await deliver(first, yours);
  record(
    'valid',
    'a valid delivery',
    '2xx',
    [valid],
    gradeAccepted(valid, ': is --secret the receiver’s secret?'),
  );

  const again = await deliver(first, yours);
  record(
    'duplicate',
    'the same event again',
    '2xx, not processed again',
    [again],
    gradeSkipped(again, 'duplicate', 'deliveries are at least once: deduplicate by Parley-Event-Id'),
  );

  const forged = await deliver(receivedEvent(), { secrets: [strangerSecret()] });
  record(
    'bad_signature',
    'a bad signature',
    '4xx',
    [forged],
    gradeRefused(forged, 'anyone can forge a delivery it accepts: verify the signature on the raw body'),
  );

  const stale = await deliver(receivedEvent(), {
    ...yours,
    timestamp: Math.floor(Date.now() / 1000) - STALE_SECONDS,
  });
  record(
    'stale_timestamp',
    'a timestamp 10 minutes old',
    '4xx',
    [stale],
    gradeRefused(stale, 'a captured delivery can be replayed later: check Parley-Timestamp (±300 s)'),
  );

  const tampered = await deliver(receivedEvent('Hello'), {
    ...yours,
    tamper: (body) => body.replace('"text":"Hello"', '"text":"Hellp"'),
  });
  record(
    'tampered_body',
    'a body changed after signing',
    '4xx',
    [tampered],
    gradeRefused(tampered, 'verify the exact raw bytes received, before any JSON parsing'),
  );

  record(
    'rotation',
    'signed with two secrets (new first)',
    '2xx to both',
    ...(await rotation(deliver, secret)),
  );

  const messageId = globalThis.crypto.randomUUID();
  const delivered = await deliver(statusEvent(messageId, 'delivered'), yours);
  const sent = await deliver(statusEvent(messageId, 'sent'), yours);
  const firstStatus = gradeAccepted(delivered);
  record(
    'out_of_order',
    'delivered, then sent, of one message',
    '2xx to both, sent not processed',
    [delivered, sent],
    firstStatus.result === 'failed'
      ? { result: 'failed', reason: `the delivered status: ${firstStatus.reason}` }
      : gradeSkipped(
          sent,
          'stale_status',
          'deliveries come in no order: drop a status older than one processed',
        ),
  );

  const timed = await deliver(receivedEvent(), yours);
  record(
    'answer_time',
    'a valid delivery, timed',
    `2xx within ${formatSeconds(timeoutMs)}`,
    [timed],
    gradeTimed(timed),
  );
  return cases;
}

// A receiver in mid-rotation holds either secret: signed [new, old] as Parley does, both the
// receiver still on the old one (its secret second) and the one already on the new one (first)
// must accept.
async function rotation(deliver: DeliverFunction, secret: string): Promise<[DoctorAnswer[], Grade]> {
  const signedWith = async (secrets: string[], event: WebhookEvent) => deliver(event, { secrets });
  const oldSecretHeld = await signedWith([strangerSecret(), secret], receivedEvent());
  const newSecretHeld = await signedWith([secret, strangerSecret()], receivedEvent());
  const grades = [
    ['yours second', gradeAccepted(oldSecretHeld, ': accept a delivery when any v1= value matches')],
    ['yours first', gradeAccepted(newSecretHeld)],
  ] as const;
  const failed = grades.find(([, grade]) => grade.result === 'failed');
  const grade: Grade = failed
    ? { result: 'failed', reason: `${failed[0]}: ${failed[1].reason}` }
    : {
        result: 'passed',
        reason: `accepted both: ${oldSecretHeld.status} (yours second), ${newSecretHeld.status} (yours first)`,
      };
  return [[oldSecretHeld, newSecretHeld], grade];
}
