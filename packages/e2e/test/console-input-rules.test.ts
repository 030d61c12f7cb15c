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

    it('sends the fault form as typed and marks the field the emulator refuses, at its limit and one past', async () => {
      await page.goto(`${server.consoleUrl}#view=testing`);
      const submit = () => page.getByRole('button', { name: 'Add fault' }).click();
      const refusedAt = async (id: string, message: string) => {
        await page.locator('#fault-error', { hasText: message }).waitFor();
        expect(await page.locator('#fault-error').textContent()).toBe(`${message} (validation_error)`);
        expect(await page.locator(`#${id}`).getAttribute('aria-invalid')).toBe('true');
        expect(await page.locator(`#${id}`).getAttribute('aria-describedby')).toBe('fault-error');
        expect(await page.locator('#fault-form [aria-invalid="true"]').count()).toBe(1);
      };
      const added = async (text: string) => {
        await page.locator('#status-message', { hasText: text }).waitFor();
        expect(await page.locator('#fault-form [aria-invalid="true"]').count()).toBe(0);
      };
      await page.locator('#fault-times').fill('0');
      await submit();
      await refusedAt('fault-times', 'times must be a whole number from 1 to 10000.');
      await page.locator('#fault-times').fill('10001');
      await submit();
      await refusedAt('fault-times', 'times must be a whole number from 1 to 10000.');
      await page.locator('#fault-times').fill('10000');
      await submit();
      await added('Fault added: 503 internal_error.');

      await page.locator('#fault-times').fill('1');
      await page.locator('#fault-status').fill('600');
      await submit();
      await refusedAt('fault-status', 'fault.status must be an HTTP error status from 400 to 599.');
      await page.locator('#fault-status').fill('599');
      await page.locator('#fault-retry-after').fill('86401');
      await submit();
      await refusedAt('fault-retry-after', 'fault.retry_after must be whole seconds from 0 to 86400.');
      await page.locator('#fault-code').fill('');
      await page.locator('#fault-retry-after').fill('');
      await submit();
      await refusedAt(
        'fault-kind',
        'fault must be one of {"status","code","retry_after"?}, {"hang":true}, {"drop":true}, {"delay_ms"}.',
      );

      await page.locator('#fault-kind').selectOption('delay');
      await page.locator('#fault-delay').fill('600001');
      await submit();
      await refusedAt('fault-delay', 'fault.delay_ms must be a whole number from 1 to 600000.');
      await page.locator('#fault-delay').fill('600000');
      await submit();
      await added('Fault added: delay 600000 ms.');
      const rows = page.locator('#fault-list tbody tr');
      await expect.poll(() => rows.count()).toBe(2);
      expect(await rows.locator('td:nth-child(2), td:nth-child(3)').allTextContents()).toEqual([
        '503 internal_error',
        '10000 of 10000',
        'delay 600000 ms',
        '1 of 1',
      ]);
      expect(pageErrors).toEqual([]);
    });

    it('says the rule of a recipient number at the field (the API’s words, not the browser’s), at 8 and 15 digits and one past', async () => {
      await page.goto(`${server.consoleUrl}#view=messages`);
      const to = page.locator('#send-to');
      const sendTo = async (number: string) => {
        await to.fill(number);
        await page.getByLabel('Text message').check();
        await page.locator('#send-text').fill(`to ${number}`);
        await page.getByRole('button', { name: 'Send message' }).click();
      };
      const rule = 'to must be an international number: "+" followed by 8 to 15 digits. (validation_error)';
      for (const refused of ['+1234567', '+1234567890123456', '0033612345678']) {
        await sendTo(refused);
        await expect.poll(() => page.locator('#send-to-error').textContent()).toBe(rule);
        expect(await to.getAttribute('aria-invalid')).toBe('true');
        expect(await to.getAttribute('aria-describedby')).toBe('send-to-error');
        // The browser let it through to the API: it has no rule of its own to say instead.
        expect(await to.evaluate((input: HTMLInputElement) => input.validationMessage)).toBe('');
        await page.locator('#send-to-error').waitFor();
      }
      for (const accepted of ['+12345678', '+123456789012345']) {
        await sendTo(accepted);
        await page.locator('#status-message', { hasText: /^Message [0-9a-f-]{36} queued\.$/ }).waitFor();
        expect(await to.getAttribute('aria-invalid')).toBe('false');
        expect(await page.locator('#send-to-error').count()).toBe(0);
        const { data } = await server.emulator.control.listMessages({ limit: 1 });
        expect(data[0]!.to).toBe(accepted);
      }
      expect(pageErrors).toEqual([]);
    });

    it('says the rule of a number to connect at its field, at 8 and 15 digits and one past', async () => {
      const live = await server.emulator.control.createApplication({
        name: 'Rules live',
        environment: 'live',
      });
      await page.goto('about:blank');
      await page.goto(`${server.consoleUrl}#view=connections&app=${live.id}`);
      const phone = page.locator('#connection-phone');
      const connect = async (number: string) => {
        await phone.fill(number);
        await page.getByRole('button', { name: 'Connect number' }).click();
      };
      const rule = 'phone_number must be "+" followed by 8 to 15 digits. (validation_error)';
      for (const refused of ['+1234567', '+1234567890123456']) {
        await connect(refused);
        await expect.poll(() => page.locator('#connection-phone-error').textContent()).toBe(rule);
        expect(await phone.getAttribute('aria-invalid')).toBe('true');
        expect(await phone.getAttribute('aria-describedby')).toBe('connection-phone-error');
      }
      for (const accepted of ['+12345678', '+123456789012345']) {
        await connect(accepted);
        await page.locator('#status-message', { hasText: `(${accepted}) connected.` }).waitFor();
        expect(await page.locator('#connection-phone-error').count()).toBe(0);
        expect(await phone.getAttribute('aria-invalid')).toBe('false');
      }
      const numbers = (await server.emulator.control.listApplicationConnections(live.id)).data.map(
        (connection) => connection.phone_number,
      );
      expect(numbers.sort()).toEqual(['+12345678', '+123456789012345']);
      expect(pageErrors).toEqual([]);
    });
  },
);
