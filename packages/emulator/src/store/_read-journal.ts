import { dataFileLines, MAX_DATA_FILE_BYTES } from './_data-file';
import { decodeJournalLine } from './_journal-line';
import type { JournalEntry } from './persistence';

/** A line of a journal: its entries, or why it is damaged; `bytes` as read, without the newline. */
export type JournalLine = { number: number; bytes: Buffer } & (
  | { entries: JournalEntry[]; damage?: undefined }
  | { damage: string; entries?: undefined }
);

/**
 * The lines of one journal file, read bounded ({@link MAX_DATA_FILE_BYTES}) and one at a time.
 * A line is acknowledged only once it and its newline are written and synced, so a last line
 * without its newline that does not decode is a write cut short (a kill, a full disk) and is
 * skipped; any other line that does not decode is damage. Empty lines are skipped.
 */
export function* readJournal(file: string): Generator<JournalLine> {
  for (const { bytes, number, complete } of dataFileLines(file, MAX_DATA_FILE_BYTES)) {
    if (bytes.length === 0) continue;
    const decoded = decodeJournalLine(bytes);
    if ('damage' in decoded && !complete) return;
    yield { number, bytes, ...decoded };
  }
}
