import { readFile } from 'node:fs/promises';
import { parseSeed } from './parse-seed';
import type { SeedFile } from './seed-types';

/** Reads and validates a seed file; errors name the file and the exact place. */
export async function readSeedFile(path: string): Promise<SeedFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(
      `cannot read seed file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`seed file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    return parseSeed(json);
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`);
  }
}
