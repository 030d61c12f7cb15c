import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, runBrowserTests } from './_console-browser';

// The console's typed inputs follow the emulator's own rules: the duration grammar the CLI reads
// (domain/duration.ts), and the control API's refusals shown at the field they name.
describe.runIf(runBrowserTests)(
  'console: typed input, by the emulator rules, in Chromium',
  { timeout: 60_000 },
  () => {
    let server: EmulatorServer;
    let browser: Browser;
    let page: Page;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      server = await startEmulatorServer({ port: 0, clock: 'frozen', now: Date.UTC(2030, 0, 1) });
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(server.consoleUrl);
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('advances the clock by a typed 1h30m; refuses 1.5h, 0s and 366d1ms with the grammar’s own words', async () => {
      const field = page.locator('#advance-by');
      const advanceBy = async (text: string) => {
        await field.fill(text);
        await page.getByRole('button', { name: 'Advance', exact: true }).click();
      };
      const start = server.emulator.clock.now();
      await advanceBy('1h30m');
      await page.locator('#status-message', { hasText: 'Clock advanced' }).waitFor();
      expect(server.emulator.clock.now()).toBe(start + 5_400_000);
      expect(await field.getAttribute('aria-invalid')).toBe('false');

      for (const [text, message] of [
        [
          '1.5h',
          'cannot read "1.5h" as a duration: use whole numbers with units from the largest (d, h, m, s, ms), e.g. 500ms, 90s, 10m, 1h30m, 2d',
        ],
        ['0s', '"0s" moves nothing: give more than 0, e.g. 1s'],
        ['366d1ms', '"366d1ms" is more than a clock moves at once: at most 366d'],
      ] as const) {
        await advanceBy(text);
        await expect.poll(() => page.locator('#advance-by-error').textContent()).toBe(message);
        expect(await field.getAttribute('aria-invalid')).toBe('true');
        expect(await field.getAttribute('aria-describedby')).toBe('advance-by-error');
      }
      expect(server.emulator.clock.now()).toBe(start + 5_400_000);
      expect(pageErrors).toEqual([]);
    });
  },
);
