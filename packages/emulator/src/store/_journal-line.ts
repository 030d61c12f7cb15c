import { hash } from 'node:crypto';
import { JOURNAL_LINE } from './_record-shapes';
import { describeProblem } from './_shape';
import type { JournalEntry } from './persistence';

/** Hex digits of the SHA-256 a line starts with: 64 bits, so damage goes unseen once in 2^64. */
const CHECKSUM_DIGITS = 16;
const CHECKSUMMED = /^[0-9a-f]{16} /;

/** The checksum of a line's JSON bytes. */
function checksum(json: Uint8Array | string): string {
  return hash('sha256', json, 'hex').slice(0, CHECKSUM_DIGITS);
}

/**
 * A journal line as written: `<16 hex digits of the SHA-256 of the JSON> <JSON array of entries>`.
 * JSON alone cannot tell a flipped bit inside a string from what was written; the checksum can.
 */
export function encodeJournalLine(entries: readonly JournalEntry[]): string {
  const json = JSON.stringify(entries);
  return `${checksum(json)} ${json}`;
}

/** What a line of a journal holds: its entries, or why it cannot be trusted. */
export type DecodedLine = { entries: JournalEntry[] } | { damage: string };

/**
 * Reads one complete journal line (without its newline). Lines of earlier versions have no
 * checksum (they start with `[`): those can only be checked for shape. Every line's entries are
 * checked for shape, so a line is either replayable as it is or named as damaged.
 */
export function decodeJournalLine(bytes: Buffer): DecodedLine {
  const head = bytes.subarray(0, CHECKSUM_DIGITS + 1).toString('latin1');
  let json: Buffer;
  if (CHECKSUMMED.test(head)) {
    json = bytes.subarray(CHECKSUM_DIGITS + 1);
    if (checksum(json) !== head.slice(0, CHECKSUM_DIGITS)) {
      return { damage: 'its checksum does not match its content' };
    }
  } else if (bytes[0] === 0x5b /* [ */) {
    json = bytes;
  } else {
    return { damage: 'not a journal line' };
  }
  let entries: unknown;
  try {
    entries = JSON.parse(json.toString('utf8'));
  } catch {
    // The parser's message quotes the line: not printed (it may hold secrets or control characters).
    return { damage: 'not JSON' };
  }
  const problem = JOURNAL_LINE(entries);
  if (problem !== undefined) return { damage: `wrong shape: ${describeProblem(problem)}` };
  return { entries: entries as JournalEntry[] };
}
