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
    const app = (await control.listApplications()).data[0]!;
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

// Webhook chaos set from the Endpoints view: a form per endpoint row, the whole setting replaced.
describe.runIf(runBrowserTests)('console: webhook chaos editor in Chromium', { timeout: 60_000 }, () => {
  let server: EmulatorServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0, clock: 'frozen' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('sets chaos from the form, shows a refusal at its field, and turns chaos off', async () => {
    const control = server.emulator.control;
    const app = (await control.listApplications()).data[0]!;
    const url = 'http://127.0.0.1:9/chaos-editor';
    const endpoint = await control.createEndpoint(app.id, { url, events: ['webhook.test'] });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${server.consoleUrl}#view=endpoints&app=${app.id}`);
    const row = page.locator(`#endpoint-list tr[data-endpoint-id="${endpoint.id}"]`);
    const summary = row.locator('td.chaos-settings summary');
    const announced = (text: string) => page.locator('#status-message', { hasText: text }).waitFor();
    await summary.filter({ hasText: 'off' }).click();
    const form = row.getByRole('form', { name: `Webhook chaos of ${url}` });

    await form.getByLabel('duplicate', { exact: true }).selectOption('next');
    await form.getByLabel('duplicate: N or rate').fill('2');
    await form.getByLabel('delayed', { exact: true }).selectOption('rate');
    await form.getByLabel('delayed: N or rate').fill('0.5');
    await form.getByLabel('delay (ms)').fill('1000');
    await form.getByLabel('Seed (optional)').fill('7');
    await form.getByRole('button', { name: `Apply chaos to ${url}` }).click();
    await announced(`Chaos set on ${url}.`);
    const set = {
      endpoint_id: endpoint.id,
      seed: 7,
      duplicate: { next: 2 },
      delayed: { rate: 0.5, delay_ms: 1000 },
      applied: {},
    };
    expect(await control.getChaos(endpoint.id)).toEqual(set);
    await summary.filter({ hasText: 'seed 7' }).waitFor();
    expect(await summary.locator('.badge.chaos').allTextContents()).toEqual([
      'duplicate next 2',
      'delayed rate 0.5, 1000 ms',
    ]);
    expect(await summary.textContent()).toBe(
      `duplicate next 2delayed rate 0.5, 1000 ms seed 7 (change the webhook chaos of ${url})`,
    );

    // A rate over 1: the API's refusal is shown at the amount it names; nothing changes.
    await form.getByLabel('duplicate', { exact: true }).selectOption('rate');
    const amount = form.getByLabel('duplicate: N or rate');
    await amount.fill('1.5');
    await form.getByRole('button', { name: `Apply chaos to ${url}` }).click();
    const error = form.locator('.field-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('duplicate.rate must be a number from 0 to 1. (validation_error)');
    expect(await amount.getAttribute('aria-invalid')).toBe('true');
    expect(await amount.getAttribute('aria-describedby')).toBe(await error.getAttribute('id'));
    await page.getByRole('alert').filter({ hasText: 'duplicate.rate' }).waitFor();
    expect(await control.getChaos(endpoint.id)).toEqual(set);

    await form.getByRole('button', { name: `Turn chaos off for ${url}` }).click();
    await announced(`Chaos off for ${url}.`);
    expect(await control.getChaos(endpoint.id)).toEqual({
      endpoint_id: endpoint.id,
      seed: null,
      applied: {},
    });
    await summary.filter({ hasText: /^off / }).waitFor();
    expect(await form.locator('.field-error').count()).toBe(0);
    expect(await form.getByLabel('duplicate', { exact: true }).inputValue()).toBe('off');
    expect(await form.getByLabel('Seed (optional)').inputValue()).toBe('');
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
