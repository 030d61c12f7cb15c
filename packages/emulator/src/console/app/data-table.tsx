import type { ComponentChildren, HTMLAttributes } from 'preact';

/** One column of a {@link DataTable}: its heading and what each row shows in it. */
export interface Column<Row> {
  /** The heading; with `hiddenTitle`, read by screen readers only (an actions column). */
  title: string;
  hiddenTitle?: boolean;
  cell: (row: Row) => ComponentChildren;
  /** The cell's class: `actions`, `content`, `nowrap`, … */
  class?: string;
}

/**
 * The console's one table: a caption for screen readers, a heading per column, a row per item.
 * `rowProps` adds a row's data attributes and its selection; each view says only its columns.
 * Where it has little room (a phone, a detail panel), each row is a card whose cells are named by
 * their column (`data-label`), so no column is squeezed and nothing scrolls sideways.
 *
 * @example
 * <DataTable caption="Faults" rows={faults} rowKey={(fault) => fault.id} columns={[{ title: 'Left', cell: (fault) => fault.remaining }]} />
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  rowProps,
}: {
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, unknown>;
}) {
  return (
    <div class="data-table">
      <table>
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column.title} class={column.class}>
                {column.hiddenTitle ? <span class="sr-only">{column.title}</span> : column.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((column) => (
                <td
                  key={column.title}
                  class={column.class}
                  data-label={column.hiddenTitle ? '' : column.title}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
