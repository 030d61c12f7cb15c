import { stripVTControlCharacters } from 'node:util';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { plainStyle } from './plain-style';
import { createStyle } from './style';
import { renderTable } from './table';

describe('renderTable', () => {
  it('aligns columns by visible width, also when cells are coloured', () => {
    const style = new Chalk({ level: 1 });
    const table = renderTable(
      style,
      ['ID', 'STATUS', 'NAME'],
      [
        ['a', style.green('active'), 'First'],
        ['bbbb', style.gray('disconnected'), 'Second'],
      ],
    );
    const plain = stripVTControlCharacters(table);
    expect(plain).not.toBe(table);
    expect(plain.split('\n')).toEqual([
      'ID    STATUS        NAME',
      'a     active        First',
      'bbbb  disconnected  Second',
    ]);
  });
});

describe('createStyle', () => {
  const tty = { isTTY: true, write: () => true };
  it('has no colour with NO_COLOR, with --no-color, or off a terminal', () => {
    expect(createStyle({ color: true, stream: tty, env: { NO_COLOR: '1' } }).level).toBe(0);
    expect(createStyle({ color: false, stream: tty, env: {} }).level).toBe(0);
    expect(createStyle({ color: true, stream: { write: () => true }, env: {} }).level).toBe(0);
  });
  it('colours a terminal, and anything under FORCE_COLOR', () => {
    expect(createStyle({ color: true, stream: tty, env: {} }).level).toBeGreaterThan(0);
    expect(
      createStyle({ color: true, stream: { write: () => true }, env: { FORCE_COLOR: '1' } }).level,
    ).toBeGreaterThan(0);
  });
});

describe('plainStyle', () => {
  it('returns text unchanged through any chain, like chalk at level 0', () => {
    const style = plainStyle();
    expect(style.bold.underline('a')).toBe('a');
    expect(style.red(`x ${style.dim('y')}`)).toBe('x y');
    expect(style.level).toBe(0);
  });
});
