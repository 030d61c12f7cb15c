import { type SignedWebhookHeaders, signWebhook } from '@parley/sdk';
import { newEventId } from '../domain/ids';
import { generateSigningSecret } from '../domain/signing-secret';
import type { ChaosKind, ForgedChaosKind } from '../domain/webhook-chaos';
import type { DeliveryRecord } from '../store/webhook-state';
import type { AttemptOutcome } from './delivery-attempt';

/** A stale copy is signed this long before it leaves: twice the 300 s receivers allow. */
export const STALE_COPY_SECONDS = 600;

/** What one attempt sends: the body and its three webhook headers. */
export interface SignedCopy {
  body: string;
  headers: SignedWebhookHeaders;
}

/**
 * The body and headers of an attempt of `delivery`: signed as Parley signs (DESIGN §3: the real
 * time it leaves, every valid secret, new first), or forged the way its chaos `kind` says.
 * `duplicate` is signed like the delivery itself: it is a true second copy.
 */
export async function signedCopy(
  delivery: DeliveryRecord,
  secrets: string[],
  kind?: ChaosKind,
): Promise<SignedCopy> {
  const timestamp = Math.floor(Date.now() / 1000);
  const signed = { payload: delivery.body, secret: secrets, id: delivery.event_id, timestamp };
  const body = delivery.body;
  switch (kind) {
    case 'stale_timestamp':
      return { body, headers: await signWebhook({ ...signed, timestamp: timestamp - STALE_COPY_SECONDS }) };
    case 'tampered_body':
      return { body: tamper(body), headers: await signWebhook(signed) };
    case 'wrong_secret':
      return { body, headers: await signWebhook({ ...signed, secret: generateSigningSecret() }) };
    case 'other_event_signature': {
      // Signed for another event id, sent under this one's: a signature lifted from another delivery.
      const headers = await signWebhook({ ...signed, id: newEventId() });
      return { body, headers: { ...headers, 'parley-event-id': delivery.event_id } };
    }
    default:
      return { body, headers: await signWebhook(signed) };
  }
}

// The envelope's own livemode (the only one followed by `"type"` in canonical JSON, where keys are
// sorted): flipped, the body stays valid JSON that claims the other mode, as an attacker's would.
function tamper(body: string): string {
  return body.replace(
    /,"livemode":(true|false),"type":"/,
    (_, mode: string) => `,"livemode":${mode === 'true' ? 'false' : 'true'},"type":"`,
  );
}

const FORGERIES: Record<ForgedChaosKind, string> = {
  stale_timestamp: 'a copy signed 10 minutes ago',
  tampered_body: 'a copy whose body changed after signing',
  wrong_secret: 'a copy signed with another secret',
  other_event_signature: 'a copy signed for another event id',
};

/**
 * What a chaos copy's answer says about the receiver (the attempt's `error`): `null` when it did
 * right (a forged copy refused with a 4xx, a duplicate acknowledged with a 2xx), else why not.
 */
export function chaosVerdict(kind: ChaosKind, outcome: AttemptOutcome): string | null {
  if (kind === 'duplicate' || kind === 'out_of_order' || kind === 'delayed') return outcome.error;
  const status = outcome.statusCode;
  if (status === null) return outcome.error;
  if (status >= 400 && status < 500) return null;
  const what = FORGERIES[kind];
  return status >= 200 && status < 300
    ? `accepted ${what} (HTTP ${status}): a receiver must refuse it with a 4xx`
    : `answered HTTP ${status} to ${what}: refuse it with a 4xx`;
}
