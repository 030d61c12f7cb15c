import { expect, test } from 'vitest';
import { resumedTime } from './resumed-time';

const WALL = 1_700_000_000_000;
const LATEST = WALL + 10_000;

test('a frozen clock resumes where it stood, its offset ignored', () => {
  expect(resumedTime({ mode: 'frozen', offsetMs: 123, frozenAt: 42 }, LATEST, WALL)).toBe(42);
  // Out of range stays out of range: the caller refuses it, naming the file.
  expect(resumedTime({ mode: 'frozen', offsetMs: 0, frozenAt: LATEST + 1 }, LATEST, WALL)).toBe(LATEST + 1);
});

test('a real clock resumes at the wall clock plus its offset, standing at the latest time past it', () => {
  expect(resumedTime({ mode: 'real', offsetMs: 5_000, frozenAt: 0 }, LATEST, WALL)).toBe(WALL + 5_000);
  expect(resumedTime({ mode: 'real', offsetMs: 10_000, frozenAt: 0 }, LATEST, WALL)).toBe(LATEST);
  expect(resumedTime({ mode: 'real', offsetMs: 10_001, frozenAt: 0 }, LATEST, WALL)).toBe(LATEST);
  expect(resumedTime({ mode: 'real', offsetMs: -WALL - 1, frozenAt: 0 }, LATEST, WALL)).toBe(-1);
});
