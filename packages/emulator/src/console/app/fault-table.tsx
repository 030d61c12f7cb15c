import { faultAnswerText } from './_fault-text';
import type { FaultView } from './control-types';
import { type Column, DataTable } from './data-table';

/** Injected faults in matching order, with the uses left of each and a way to remove it. */
export function FaultTable({
  faults,
  onRemove,
}: {
  faults: FaultView[];
  onRemove: (fault: FaultView) => void;
}) {
  const columns: Column<FaultView>[] = [
    {
      title: 'Requests',
      class: 'content',
      cell: (fault) => (
        <>
          <code>
            {fault.method ?? 'any'} {fault.path ?? 'any /v1 path'}
          </code>
          {fault.key_id && <code> key {fault.key_id}</code>}
          {fault.key_prefix && <code> key {fault.key_prefix}…</code>}
        </>
      ),
    },
    { title: 'Answer', cell: (fault) => faultAnswerText(fault.fault) },
    { title: 'Left', cell: (fault) => `${fault.remaining} of ${fault.times}` },
    {
      title: 'Actions',
      hiddenTitle: true,
      class: 'actions',
      cell: (fault) => (
        <button
          type="button"
          class="danger"
          aria-label={`Remove fault ${faultAnswerText(fault.fault)}`}
          onClick={() => onRemove(fault)}
        >
          Remove
        </button>
      ),
    },
  ];
  return (
    <DataTable
      caption="Injected faults, first match answers"
      columns={columns}
      rows={faults}
      rowKey={(fault) => fault.id}
      rowProps={(fault) => ({ 'data-fault-id': fault.id })}
    />
  );
}
