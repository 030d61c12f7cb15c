import type { Delivery } from './control-types';
import { when } from './format';

type Attempt = Delivery['attempts'][number];

function attemptText(attempt: Attempt): string {
  return attempt.status_code !== null ? `HTTP ${attempt.status_code}` : (attempt.error ?? 'no answer');
}

/** A delivery's attempts: the count and the last one, opened to list each with its time and answer. */
export function DeliveryAttempts({ attempts }: { attempts: Attempt[] }) {
  const last = attempts[attempts.length - 1];
  if (!last) return <span class="muted">none yet</span>;
  // Chaos copies are not attempts of the delivery (they never count for its status): said apart.
  const copies = attempts.filter((attempt) => attempt.chaos !== undefined).length;
  const count = copies > 0 ? `${attempts.length - copies} + ${copies} chaos` : `${attempts.length}`;
  return (
    <details>
      <summary>{`${count} · last: ${attemptText(last)}`}</summary>
      <ol class="attempts">
        {attempts.map((attempt, index) => (
          <li key={index}>
            {attempt.chaos && <span class="badge chaos">{attempt.chaos}</span>} {when(attempt.at)} ·{' '}
            {attemptText(attempt)}
            {attempt.error && attempt.status_code !== null ? ` · ${attempt.error}` : ''} ·{' '}
            {attempt.duration_ms} ms
          </li>
        ))}
      </ol>
    </details>
  );
}
