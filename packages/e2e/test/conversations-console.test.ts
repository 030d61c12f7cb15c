import { type EmulatorServer, SANDBOX_ACTIVE_CONNECTION_ID, startEmulatorServer } from '@parley/emulator';
import { Parley } from '@parley/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, runBrowserTests } from './_console-browser';
import { startEchoApp } from './_echo-app';

const CUSTOMER = '+33611112222';

/** What makes a page wider than its window, or an element stick out of it. */
function overflowing(): string[] {
  const width = document.documentElement.clientWidth;
  const found: string[] = [];
  if (document.documentElement.scrollWidth > width)
    found.push(`page ${document.documentElement.scrollWidth} px`);
  for (const element of document.querySelectorAll('#conversations *')) {
    const box = element.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 0.5)
      found.push(`${element.tagName} ${element.className} ${box.right}`);
  }
  return found;
}

describe.runIf(runBrowserTests)('console conversations in Chromium (issue 26)', { timeout: 120_000 }, () => {
  let server: EmulatorServer;
  let echo: Awaited<ReturnType<typeof startEchoApp>>;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0, clock: 'frozen' });
    echo = await startEchoApp(server.baseUrl);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await echo?.close();
    await server?.close();
  });

  const control = () => server.emulator.control;
  /** An application with a key and an endpoint to the echo app, the echo app pointed at it. */
  const application = async (name: string, environment: 'sandbox' | 'live') => {
    const app = await control().createApplication({ name, environment });
    const { key } = await control().createKey(app.id, { accept_agreement: true });
    const { secret } = await control().createEndpoint(app.id, {
      url: echo.url,
      events: ['message.received'],
    });
    echo.set(key, secret);
    return app;
  };
  const advance = async (label: string) => {
    await page.getByRole('button', { name: label, exact: true }).click();
    await page.locator('#status-message', { hasText: 'Clock advanced' }).waitFor();
    await server.emulator.idle();
  };
  const bubble = (text: string) => page.locator('ol.thread li.bubble', { hasText: text });
  const writeAsCustomer = async (text: string) => {
    const reply = echo.nextReply();
    await page.getByLabel('Message as the customer').fill(text);
    await page.getByRole('button', { name: 'Send as customer' }).click();
    await reply;
  };

  it('sandbox: "hi" typed as the customer reaches the app verified; its reply appears and walks to delivered', async () => {
    const app = await application('Echo sandbox', 'sandbox');
    await page.goto(`${server.consoleUrl}#view=conversations&app=${app.id}`);
    await page.locator('#live-state', { hasText: 'Live' }).waitFor();
    await page.getByLabel('Customer number').fill(CUSTOMER);
    await page.getByRole('button', { name: 'Open conversation' }).click();
    await page.getByText('No message yet: write as the customer below.').waitFor();

    await writeAsCustomer('hi');
    const received = echo.received.filter((event) => event.type === 'message.received');
    expect(received).toHaveLength(1);
    expect(received[0]!.data).toMatchObject({
      message: { from: CUSTOMER, text: 'hi', connection_id: SANDBOX_ACTIVE_CONNECTION_ID, livemode: false },
    });
    await bubble('hi').and(page.locator('.inbound')).waitFor();
    const reply = bubble('echo: hi');
    await reply.and(page.locator('[data-status="queued"]')).waitFor();
    await advance('+5 s');
    await reply.and(page.locator('[data-status="delivered"]')).waitFor();
    expect(await reply.locator('.ticks').textContent()).toBe('✓✓ delivered');
    // Only the magic number +15550101002 reads in the sandbox: the read action says so, off.
    expect(await page.getByRole('button', { name: 'Customer reads' }).isDisabled()).toBe(true);
    await page.getByText('Sandbox messages are never read but by the magic number +15550101002.').waitFor();
    // The thread is listed, newest first, with its last message.
    await page
      .locator('#conversation-list li', { hasText: CUSTOMER })
      .filter({ hasText: 'echo: hi' })
      .waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("live: the window's time left is shown; a text reply after 24 h shows failed with outside_messaging_window", async () => {
    const app = await application('Echo live', 'live');
    const connection = await control().createConnection(app.id, { phone_number: '+14155550100' });
    // A new document: the hash alone would keep the page (and its list of applications) as it was.
    await page.goto(`${server.consoleUrl}#view=conversations&app=${app.id}`);
    await page.reload();
    await page.getByLabel('Connection').selectOption(connection.id);
    await page.getByLabel('Customer number').fill(CUSTOMER);
    await page.getByRole('button', { name: 'Open conversation' }).click();
    await page.locator('[data-window="closed"]').waitFor();

    await writeAsCustomer('hi');
    await bubble('echo: hi').waitFor();
    await page.locator('[data-window="open"]', { hasText: 'open, 24 h 0 min left' }).waitFor();
    await advance('+5 s');
    await bubble('echo: hi').and(page.locator('[data-status="delivered"]')).waitFor();
    // The customer reads: the clock moves to the reply's read step.
    await page.getByRole('button', { name: 'Customer reads' }).click();
    await page.locator('#status-message', { hasText: "The customer read the app's last message" }).waitFor();
    await bubble('echo: hi').and(page.locator('[data-status="read"]')).waitFor();
    await advance('+24 h');
    await page.locator('[data-window="closed"]').waitFor();

    const parley = new Parley({
      apiKey: (await control().createKey(app.id)).key,
      baseUrl: server.baseUrl,
      maxRetries: 0,
    });
    const late = await parley.messages.send({
      connection_id: connection.id,
      to: CUSTOMER,
      type: 'text',
      text: 'late',
    });
    expect(late).toMatchObject({ status: 'failed', error: { code: 'outside_messaging_window' } });
    const failed = bubble('late').and(page.locator('[data-status="failed"]'));
    await failed.waitFor();
    expect(await failed.locator('.field-error').textContent()).toMatch(/^outside_messaging_window: /);
    const { daily_cap } = await control().getConversation(app.id, {
      connectionId: connection.id,
      number: CUSTOMER,
    });
    await page.getByText(`${daily_cap!.sent_today} of 1000 sends today (UTC)`).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('has no horizontal overflow at 1280 and 390 px, in light and dark', async () => {
    const found: Record<string, string[]> = {};
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await bubble('late').waitFor();
        const problems = await page.evaluate(overflowing);
        if (problems.length > 0) found[`${width} ${scheme}`] = problems;
        if (process.env.PARLEY_SCREENSHOTS === '1' && width === 1280) {
          await page.screenshot({
            path: new URL(`../../../docs/images/console-conversations-${scheme}.png`, import.meta.url)
              .pathname,
          });
        }
      }
    }
    expect(found).toEqual({});
  });

  it('keeps the thread opened in the URL hash: a reload or a link opens it again, another application closes it', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const app = await application('Hash sandbox', 'sandbox');
    const reply = echo.nextReply();
    await control().messageAsCustomer(app.id, {
      connection_id: SANDBOX_ACTIVE_CONNECTION_ID,
      from: CUSTOMER,
      text: 'kept in the hash',
    });
    await reply;
    await page.goto('about:blank');
    await page.goto(`${server.consoleUrl}#view=conversations&app=${app.id}`);
    await page.locator('#conversation-list li', { hasText: CUSTOMER }).getByRole('button').click();
    await bubble('echo: kept in the hash').waitFor();
    const hash = () => Object.fromEntries(new URLSearchParams(new URL(page.url()).hash.slice(1)));
    expect(hash()).toEqual({
      view: 'conversations',
      app: app.id,
      connection: SANDBOX_ACTIVE_CONNECTION_ID,
      customer: CUSTOMER,
    });
    await page.reload();
    await bubble('echo: kept in the hash').waitFor();
    expect(await page.locator('#conversation-list button[aria-current="true"]').textContent()).toBe(CUSTOMER);

    await page.goto('about:blank');
    const link = new URLSearchParams({
      view: 'conversations',
      app: app.id,
      connection: SANDBOX_ACTIVE_CONNECTION_ID,
      customer: CUSTOMER,
    });
    await page.goto(`${server.consoleUrl}#${link}`);
    await bubble('echo: kept in the hash').waitFor();

    const seed = (await control().listApplications()).data[0]!;
    await page.locator('#app-select').selectOption(seed.id);
    await page.locator('#conversation-list').waitFor();
    expect(hash()).toEqual({ view: 'conversations', app: seed.id });
    expect(await page.locator('ol.thread').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
