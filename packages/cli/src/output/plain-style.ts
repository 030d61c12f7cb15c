import type { ChalkInstance } from 'chalk';

/**
 * A chalk-shaped style that adds nothing, for `--json` runs: stdout carries only JSON there, so
 * loading chalk would only cost start-up time. Any chain (`style.bold.red(text)`) returns the
 * text unchanged.
 */
export function plainStyle(): ChalkInstance {
  const identity = (...texts: unknown[]) => texts.join(' ');
  const style: ChalkInstance = new Proxy(identity, {
    get: (_target, property) => (property === 'level' ? 0 : style),
  }) as unknown as ChalkInstance;
  return style;
}
