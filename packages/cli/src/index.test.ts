import { describe, expect, it } from 'vitest';
import * as cli from './index';

describe('@parley/cli public surface', () => {
  it('exports exactly these names (a change here is a change of the public API)', () => {
    expect(Object.keys(cli).sort()).toMatchInlineSnapshot(`
      [
        "EXIT",
        "ExitError",
        "addFault",
        "advanceEmulatorClock",
        "clearFaults",
        "completion",
        "configDelete",
        "configList",
        "configSet",
        "configUse",
        "createContext",
        "emulatorClock",
        "emulatorStatus",
        "endpointChaos",
        "getMessage",
        "isExitError",
        "listConnections",
        "listFaults",
        "listTemplates",
        "listen",
        "magicNumbers",
        "resetEmulator",
        "send",
        "signDelivery",
        "startEmulator",
        "status",
        "trigger",
        "verifyDelivery",
      ]
    `);
  });

  it('runs a command as a function: no key is a config error (exit 3)', async () => {
    const context = cli.createContext({
      // No probe of 127.0.0.1:4010, where another test's emulator may answer (config/local-emulator.ts).
      env: { XDG_CONFIG_HOME: '/nonexistent', PARLEY_TEST_LOCAL_EMULATOR_ORIGIN: 'off' },
      stdout: { write: () => true },
      stderr: { write: () => true },
    });
    const failure = await cli.status({}, context).catch((error: unknown) => error);
    expect(cli.isExitError(failure) && failure.code).toBe(cli.EXIT.config);
  });
});
