import type { CommandContext } from '../context';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A status line on stderr: rewritten in place on a terminal, one line per change otherwise. */
export interface ProgressLine {
  /** Shows `text`; off a terminal a new line is written only when `key` changes (not every tick). */
  update(text: string, key?: string): void;
  /** Replaces the line with a final one and ends it. */
  done(text: string): void;
}

/**
 * Creates the live progress line of `--wait` and `--watch`. Silent under `--json`, where stdout
 * carries only the final data and scripts read nothing else.
 */
export function createProgressLine(context: CommandContext): ProgressLine {
  const stream = context.stderr;
  let frame = 0;
  let last = '';
  if (context.json) return { update() {}, done() {} };
  if (!stream.isTTY) {
    return {
      update(text, key = text) {
        if (key !== last) stream.write(`${text}\n`);
        last = key;
      },
      done(text) {
        stream.write(`${text}\n`);
      },
    };
  }
  return {
    update(text) {
      frame = (frame + 1) % FRAMES.length;
      stream.write(`\r\x1b[2K${context.style.cyan(FRAMES[frame])} ${text}`);
    },
    done(text) {
      stream.write(`\r\x1b[2K${text}\n`);
    },
  };
}
