import type { ChalkInstance } from 'chalk';

/** Colours a message or connection status the same way in every view. */
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
      return style.yellow(status);
  }
}
