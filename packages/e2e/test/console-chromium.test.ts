import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { Parley, verifyWebhook } from '@parley/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, runBrowserTests, startReceiver } from './_console-browser';

// Chromium on a shared two-core machine: generous time, never a timing assertion.
describe.runIf(runBrowserTests)('web console in Chromium', { timeout: 60_000 }, () => {
  let server: EmulatorServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0, clock: 'frozen' });
    receiver = await startReceiver();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  const status = () => page.locator('#status-message');
  const view = (name: string) =>
    page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name }).click();
  const advance = async (label: string) => {
    await page.getByRole('button', { name: label, exact: true }).click();
    await status().filter({ hasText: 'Clock advanced' }).waitFor();
    await server.emulator.idle();
  };

  it('creates an app, a key shown once, an endpoint that receives a test event, and follows a message', async () => {
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(server.consoleUrl);
    await expect(page.title()).resolves.toBe('Parley emulator console');
    expect(await page.locator('#clock-mode').textContent()).toBe('frozen');

    await page.getByText('New application').click();
    await page.getByLabel('Name').fill('Console test app');
    await page.getByLabel('Environment').selectOption('sandbox');
    await page.getByRole('button', { name: 'Create application' }).click();
    await status().filter({ hasText: 'Application Console test app (sandbox) created.' }).waitFor();
    const selected = await page.locator('#app-select option:checked').textContent();
    expect(selected).toBe('Console test app (sandbox)');

    await view('Applications and keys');
    expect(await page.locator('#key-agreement-field').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Create key' }).click();
    const keyValue = page.locator('#key-secret code[data-secret]');
    await keyValue.waitFor();
    const key = (await keyValue.textContent()) ?? '';
    expect(key).toMatch(/^prl_sandbox_[0-9A-Za-z]{32}$/);
    await expect(page.getByRole('button', { name: 'Copy api key' }).isVisible()).resolves.toBe(true);

    await page.reload();
    await page.locator('#usage-list table').waitFor();
    expect(await page.locator('#app-select option:checked').textContent()).toBe('Console test app (sandbox)');
    expect(await page.locator('#key-secret').innerHTML()).toBe('');
    expect(await page.content()).not.toContain(key);
    expect(await page.locator('#usage-list code').first().textContent()).toMatch(/^prl_sandbox_/);

    await view('Endpoints');
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secretValue = page.locator('#endpoint-secret code[data-secret]');
    await secretValue.waitFor();
    const secret = (await secretValue.textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    const row = page.locator('#endpoint-list tr', { hasText: receiver.url });
    await row.waitFor();

    await row.getByRole('button', { name: 'Send test' }).click();
    await status()
      .filter({ hasText: /^Test event evt_[0-9a-f]{32} queued\.$/ })
      .waitFor();
    const eventId = /evt_[0-9a-f]{32}/.exec((await status().textContent()) ?? '')![0];
    await advance('+1 s');
    await view('Webhook deliveries');
    await page
      .locator('#delivery-list tr', { hasText: eventId })
      .locator('.badge', { hasText: 'delivered' })
      .waitFor();
    const testDelivery = receiver.received.find((request) => request.headers['parley-event-id'] === eventId)!;
    const event = await verifyWebhook(testDelivery.body, testDelivery.headers, secret);
    expect(event.type).toBe('webhook.test');

    const parley = new Parley({ apiKey: key, baseUrl: server.baseUrl, maxRetries: 0 });
    const [connection] = (await parley.connections.list()).data;
    const message = await parley.messages.send({
      connection_id: connection!.id,
      to: '+33612345678',
      type: 'text',
      text: 'Bonjour from the console test',
    });
    await view('Messages');
    await page.getByRole('button', { name: 'Refresh' }).click();
    const messageRow = page.locator(`#message-list tr[data-message-id="${message.id}"]`);
    await messageRow.locator('.badge', { hasText: 'queued' }).waitFor();
    await advance('+5 s');
    await messageRow.locator('.badge', { hasText: 'delivered' }).waitFor();

    // Revoking the key from the console: the confirmation is accepted, then the key is refused.
    await view('Applications and keys');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: /^Revoke key prl_sandbox_/ }).click();
    await status().filter({ hasText: 'Key revoked.' }).waitFor();
    await expect(parley.status.get()).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });

    await page.screenshot({ path: '/tmp/console.png', fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('shows refusals as alerts, asks for the agreement on a live key, and replays a failed delivery', async () => {
    await page.goto(server.consoleUrl);
    await page.getByText('New application').click();
    await page.getByLabel('Name').fill('Live console app');
    await page.getByLabel('Environment').selectOption('live');
    await page.getByRole('button', { name: 'Create application' }).click();
    await status().filter({ hasText: 'Live console app (live) created.' }).waitFor();
    await view('Applications and keys');

    const agreement = page.getByLabel(/I accept the developer agreement/);
    expect(await agreement.isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('alert').filter({ hasText: 'agreement_required' }).waitFor();
    await agreement.check();
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.locator('#key-secret code[data-secret]').textContent()).toMatch(
      /^prl_live_[0-9A-Za-z]{32}$/,
    );

    await view('Endpoints');
    await page.getByLabel('URL').fill('http://10.0.0.1:8080/hooks');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('alert').filter({ hasText: 'invalid_url' }).waitFor();

    receiver.answer.status = 500;
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const row = page.locator('#endpoint-list tr', { hasText: receiver.url });
    await row.getByRole('button', { name: 'Send test' }).click();
    await status()
      .filter({ hasText: /^Test event evt_/ })
      .waitFor();
    const eventId = /evt_[0-9a-f]{32}/.exec((await status().textContent()) ?? '')![0];
    for (let attempt = 0; attempt < 12; attempt++) {
      await server.emulator.clock.advance(6 * 60 * 60 * 1000);
      await server.emulator.idle();
    }
    await view('Webhook deliveries');
    await page.getByRole('button', { name: 'Refresh' }).click();
    const failedRow = page.locator('#delivery-list tr', { hasText: eventId }).filter({ hasText: 'failed' });
    await failedRow.waitFor();
    expect(await failedRow.locator('summary').textContent()).toBe('12 · last: HTTP 500');

    receiver.answer.status = 200;
    await failedRow.getByRole('button', { name: 'Replay' }).click();
    await status().filter({ hasText: 'Replay queued' }).waitFor();
    await advance('+1 s');
    await page
      .locator('#delivery-list tr', { hasText: eventId })
      .locator('.badge', { hasText: 'delivered' })
      .waitFor();
    const attempts = receiver.received.filter((request) => request.headers['parley-event-id'] === eventId);
    expect(attempts.map((request) => request.body)).toEqual(Array(13).fill(attempts[0]!.body));

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Reset' }).click();
    await status().filter({ hasText: 'Emulator reset.' }).waitFor();
    const names = await page.locator('#app-select option').allTextContents();
    expect(names).not.toContain('Live console app (live)');
    expect(names).not.toContain('Console test app (sandbox)');
  });
});
