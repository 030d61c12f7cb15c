import { Badge } from './badge';
import { ChaosBadge } from './chaos-badge';
import { useConsole } from './console-context';
import { control } from './control';
import type { Delivery } from './control-types';
import { type Column, DataTable } from './data-table';
import { DeliveryAttempts } from './delivery-attempts';
import { when } from './format';

/** Deliveries, newest first, with their attempts; a finished one can be replayed. */
export function DeliveryTable({ deliveries, urlOf }: { deliveries: Delivery[]; urlOf: Map<string, string> }) {
  const { act } = useConsole();
  const replay = (delivery: Delivery) =>
    act(async () => {
      await control.replayDelivery(delivery.id);
      return 'Replay queued (same event id).';
    });
  const columns: Column<Delivery>[] = [
    {
      title: 'Status',
      cell: (delivery) => (
        <>
          <Badge status={delivery.status} />
          {delivery.chaos && <ChaosBadge kinds={delivery.chaos} />}
        </>
      ),
    },
    {
      title: 'Event',
      class: 'content',
      cell: (delivery) => (
        <>
          {delivery.event_type}
          <br />
          <code class="muted">{delivery.event_id}</code>
        </>
      ),
    },
    {
      title: 'Endpoint',
      class: 'content',
      cell: (delivery) => <code>{urlOf.get(delivery.endpoint_id) ?? delivery.endpoint_id}</code>,
    },
    { title: 'Attempts', cell: (delivery) => <DeliveryAttempts attempts={delivery.attempts} /> },
    { title: 'Next attempt', cell: (delivery) => when(delivery.next_attempt_at) || '—' },
    {
      title: 'Actions',
      hiddenTitle: true,
      class: 'actions',
      cell: (delivery) =>
        delivery.status !== 'pending' && (
          <button
            type="button"
            aria-label={`Replay ${delivery.event_type} ${delivery.event_id}`}
            onClick={() => replay(delivery)}
          >
            Replay
          </button>
        ),
    },
  ];
  return (
    <DataTable
      caption="Deliveries, newest first"
      columns={columns}
      rows={deliveries}
      rowKey={(delivery) => delivery.id}
      rowProps={(delivery) => ({ 'data-delivery-id': delivery.id })}
    />
  );
}
