import { stripVTControlCharacters } from 'node:util';
import type { ChalkInstance } from 'chalk';

/**
 * Renders rows as aligned columns under a bold header, the human view of every list. Cells may
 * carry colour: widths count visible characters only.
 *
 * @example
 * renderTable(style, ['ID', 'STATUS'], [[id, style.green('active')]]);
 */
export function renderTable(
  style: ChalkInstance,
  head: readonly string[],
  rows: readonly string[][],
): string {
  const widths = head.map((title, column) =>
    Math.max(visibleWidth(title), ...rows.map((row) => visibleWidth(row[column] ?? ''))),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column === cells.length - 1 ? cell : cell + ' '.repeat((widths[column] ?? 0) - visibleWidth(cell)),
      )
      .join('  ')
      .trimEnd();
  return [style.bold(line(head)), ...rows.map(line)].join('\n');
}

/**
 * Renders `label  value` pairs with aligned values, the human view of a single object.
 */
export function renderFields(style: ChalkInstance, fields: readonly (readonly [string, string])[]): string {
  const width = Math.max(...fields.map(([label]) => label.length));
  return fields.map(([label, value]) => `${style.dim(label.padEnd(width))}  ${value}`).join('\n');
}

function visibleWidth(text: string): number {
  return stripVTControlCharacters(text).length;
}
