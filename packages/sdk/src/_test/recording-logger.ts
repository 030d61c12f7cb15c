import type { Logger } from '../core/logger';

/** A {@link Logger} that keeps every line, prefixed with its level: `info parley: GET …`. */
export function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const record = (level: string) => (message: string) => {
    lines.push(`${level} ${message}`);
  };
  return {
    lines,
    logger: { error: record('error'), warn: record('warn'), info: record('info'), debug: record('debug') },
  };
}
