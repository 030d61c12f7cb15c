import { control } from './control';
import type { MagicRecipient } from './control-types';
import { type Column, DataTable } from './data-table';
import { LoadError } from './empty';
import { useLiveData } from './live-data';

const COLUMNS: Column<MagicRecipient>[] = [
  { title: 'Number', cell: (recipient) => <code>{recipient.number}</code> },
  { title: 'Behaviour', cell: (recipient) => <code>{recipient.behaviour}</code> },
  { title: 'What happens', class: 'content', cell: (recipient) => recipient.description },
];

/** The sandbox recipients with a fixed outcome: a fixed table, loaded again only on a full refresh. */
export function MagicNumbers() {
  const numbers = useLiveData(() => control.listMagicNumbers({ limit: 100 }), [], []);
  return (
    <section id="magic-numbers" aria-labelledby="magic-numbers-title">
      <h3 id="magic-numbers-title">Magic recipients</h3>
      <LoadError error={numbers.error} />
      {numbers.data && (
        <DataTable
          caption="Sandbox recipients with a fixed outcome"
          columns={COLUMNS}
          rows={numbers.data.data}
          rowKey={(recipient) => recipient.number}
        />
      )}
    </section>
  );
}
