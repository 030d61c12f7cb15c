import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JOURNAL_NAME } from '../store/_load-directory';
import { filePersistence } from '../store/file-persistence';
import { testEmulator, textSend } from './test-emulator';

/** Where a journal line is: its file and 1-based number. */
export interface LinePlace {
  file: string;
  number: number;
}

/**
 * For tests of damaged data: a data dir whose snapshot predates `texts.length` accepted sends, so
 * each send is one line of one journal, as after a kill. The emulator that wrote it stays open
 * (the "killed" run) and is closed after the test like every test emulator.
 */
export async function journaledDataDir(parent: string, texts: readonly string[]) {
  const dir = mkdtempSync(join(parent, 'data-'));
  const persistence = filePersistence({ dataDir: dir });
  // No coalesced snapshot: every send stays in the journal, whatever the machine's speed.
  const { emulator, send } = testEmulator({ dataDir: dir }, { ...persistence, changed: () => {} });
  await emulator.ready;
  const ids: string[] = [];
  for (const text of texts) {
    const accepted = await send(textSend({ text }));
    if (accepted.status !== 202) throw new Error(`send refused: ${JSON.stringify(accepted.body)}`);
    ids.push(accepted.body.id);
  }
  const journals = readdirSync(dir)
    .filter((name) => JOURNAL_NAME.test(name))
    .map((name) => join(dir, name));
  /** The journal line that holds message `id`. */
  const lineOf = (id: string): LinePlace => {
    for (const file of journals) {
      const number =
        readFileSync(file, 'utf8')
          .split('\n')
          .findIndex((line) => line.includes(id)) + 1;
      if (number > 0) return { file, number };
    }
    throw new Error(`no journal line holds ${id}`);
  };
  return { dir, ids, lineOf };
}

/** Replaces line `number` of `file` (1-based, newline kept) by what `change` makes of its bytes. */
export function changeLine({ file, number }: LinePlace, change: (line: Buffer) => Buffer | string): void {
  const lines = readFileSync(file).toString('latin1').split('\n');
  const changed = change(Buffer.from(lines[number - 1]!, 'latin1'));
  lines[number - 1] = Buffer.from(changed).toString('latin1');
  writeFileSync(file, Buffer.from(lines.join('\n'), 'latin1'));
}

/** `line` with bit `bit` of the byte at `index` flipped (one bit of damage). */
export function flipBit(line: Buffer, index: number, bit = 0): Buffer {
  const copy = Buffer.from(line);
  copy[index] = copy[index]! ^ (1 << bit);
  return copy;
}
