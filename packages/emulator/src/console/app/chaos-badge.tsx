/** Webhook chaos on a delivery (`PUT /_emulator/endpoints/{id}/chaos`): small, and named in full on hover. */
export function ChaosBadge({ kinds }: { kinds: readonly string[] }) {
  return (
    <span class="badge chaos" title={`Webhook chaos: ${kinds.join(', ')}`}>
      {`chaos: ${kinds.join(', ')}`}
    </span>
  );
}
