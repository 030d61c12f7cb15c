import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The one emulator every worker shares: its API base URL and its control API. */
    parleyEmulator: { baseUrl: string; controlUrl: string };
  }
}

let server: EmulatorServer | undefined;

/** Starts one emulator on 127.0.0.1 (a free port) before any worker, and stops it after the last. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  server = await startEmulatorServer({ port: 0, host: '127.0.0.1', clock: 'frozen' });
  project.provide('parleyEmulator', { baseUrl: server.baseUrl, controlUrl: server.controlUrl });
  return async () => {
    await server?.close();
  };
}
