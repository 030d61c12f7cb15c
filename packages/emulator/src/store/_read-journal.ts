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
    if (complete || !('damage' in decoded)) {
      yield { number, bytes, ...decoded };
      continue;
    }
    // A write cut short is a prefix of its line and newline, never a whole line plus one byte:
    // that is a line whose newline was damaged, and the line itself reads back as written.
    const whole = bytes.subarray(0, -1);
    const line = whole.length > 0 ? decodeJournalLine(whole) : decoded;
    if (!('damage' in line)) yield { number, bytes: whole, ...line };
  }
}
