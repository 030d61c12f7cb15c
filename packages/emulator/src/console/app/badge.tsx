const TONE: Record<string, string> = {
  delivered: 'ok',
  read: 'ok',
  sent: 'ok',
  active: 'ok',
  pending: 'warn',
  queued: 'warn',
  failed: 'bad',
  disconnected: 'bad',
  received: 'muted',
};

/** A status as a coloured pill; HTTP statuses by class (2xx ok, 4xx warn, 5xx bad). */
export function Badge({ status }: { status: string | number }) {
  const text = String(status);
  const tone = typeof status === 'number' ? httpTone(status) : (TONE[text] ?? 'muted');
  return <span class={`badge ${tone}`}>{text}</span>;
}

function httpTone(status: number): string {
  return status < 300 ? 'ok' : status < 500 ? 'warn' : 'bad';
}
