import type { ChalkInstance } from 'chalk';
import { terminalSafe } from './terminal-safe';

/** Colours a message or connection status the same way in every view; an unknown one is shown terminal-safe. */
export function colorStatus(style: ChalkInstance, status: string): string {
  switch (status) {
    case 'active':
    case 'delivered':
    case 'read':
    case 'received':
      return style.green(status);
    case 'failed':
      return style.red(status);
    case 'disconnected':
      return style.gray(status);
    default:
      return style.yellow(terminalSafe(status));
  }
}
