import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, runBrowserTests, startReceiver } from './_console-browser';

// Webhook chaos in the console's deliveries view: the delivery and each chaos copy carry a badge.
describe.runIf(runBrowserTests)('console: webhook chaos in Chromium', { timeout: 60_000 }, () => {
  let server: EmulatorServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;

  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0, clock: 'frozen' });
    receiver = await startReceiver();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  it('badges a delivery with chaos and tells its chaos copies from its own attempts', async () => {
    const control = server.emulator.control;
    const app = control.listApplications()[0]!;
    const endpoint = await control.createEndpoint(app.id, { url: receiver.url, events: ['webhook.test'] });
    await control.setChaos(endpoint.id, { duplicate: { next: 1 }, wrong_secret: { next: 1 } });
    const { event_id } = await control.testEndpoint(endpoint.id);
    await server.emulator.clock.advance(0);
    await server.emulator.idle();
    // The receiver answers 200 to everything: the forged copy is accepted, and the console says so.
    expect(receiver.received).toHaveLength(3);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.consoleUrl}#view=deliveries&app=${app.id}`);
    const row = page.locator('#delivery-list tr', { hasText: event_id });
    await row.locator('.badge.chaos', { hasText: 'chaos: duplicate, wrong_secret' }).waitFor();
    await row.locator('summary', { hasText: '1 + 2 chaos · last: HTTP 200' }).click();
    const lines = row.locator('ol.attempts li');
    await expect.poll(() => lines.count()).toBe(3);
    expect(await lines.nth(0).locator('.badge.chaos').textContent()).toBe('wrong_secret');
    expect(await lines.nth(0).textContent()).toContain(
      'accepted a copy signed with another secret (HTTP 200)',
    );
    expect(await lines.nth(1).locator('.badge.chaos').count()).toBe(0);
    expect(await lines.nth(2).locator('.badge.chaos').textContent()).toBe('duplicate');
    await page.close();
  });
});
