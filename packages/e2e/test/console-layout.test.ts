import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { Parley } from '@parley/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, runBrowserTests, startReceiver } from './_console-browser';

const VIEWS = [
  ['timeline', 'Timeline'],
  ['messages', 'Messages'],
  ['conversations', 'Conversations'],
  ['deliveries', 'Webhook deliveries'],
  ['endpoints', 'Endpoints'],
  ['keys', 'Applications and keys'],
  ['connections', 'Connections'],
  ['testing', 'Testing tools'],
] as const;

/**
 * What the page shows badly at its current width, found in the page itself: the page wider than
 * the window; an element past the window's edge; a box that hides part of its content behind a
 * scroll or a clip; a word of a cell broken into lines of a few letters (a column too narrow).
 */
function layoutProblems(): string[] {
  const problems: string[] = [];
  const name = (element: Element) =>
    `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.classList.length ? `.${[...element.classList].join('.')}` : ''} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width) {
    problems.push(`the page is ${document.documentElement.scrollWidth} px wide in ${width} px`);
  }
  for (const element of document.querySelectorAll('body *')) {
    if (element.closest('.sr-only, script, style, option, select')) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (box.right > width + 0.5 || box.left < -0.5)
      problems.push(`${name(element)} is past the window's edge`);
    const { overflowX } = getComputedStyle(element);
    if (overflowX !== 'visible' && element.scrollWidth > element.clientWidth + 1) {
      problems.push(`${name(element)} hides ${element.scrollWidth - element.clientWidth} px of its content`);
    }
  }
  for (const cell of document.querySelectorAll('td, th')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of (node.textContent ?? '').matchAll(/\S{4,}/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        if (lines > Math.ceil(match[0].length / 8)) {
          problems.push(`${name(cell)}: "${match[0]}" is broken into ${lines} lines`);
        }
      }
    }
  }
  return problems;
}

// Every view at a desktop width and at a phone's (390 px), in both themes: nothing overflows,
// nothing is clipped, no column is squeezed to a few letters.
describe.runIf(runBrowserTests)('console layout in Chromium', { timeout: 120_000 }, () => {
  let server: EmulatorServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;
  let page: Page;
  let appId: string;
  let liveAppId: string;
  const pageErrors: string[] = [];
  const failed: string[] = [];

  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0, clock: 'frozen', now: Date.UTC(2030, 0, 1) });
    receiver = await startReceiver();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
    const control = server.emulator.control;
    appId = (await control.listApplications()).data[0]!.id;
    const endpoint = await control.createEndpoint(appId, {
      url: `${receiver.url}/a/rather/long/path/for/a/webhook/receiver`,
      events: ['message.status_updated', 'webhook.test'],
    });
    await control.setChaos(endpoint.id, { duplicate: { next: 1 }, seed: 7 });
    const parley = new Parley({ apiKey: server.sandboxKey, baseUrl: server.baseUrl, maxRetries: 0 });
    const [connection] = (await parley.connections.list()).data;
    for (const to of ['+15550101002', '+33612345678', '+33600000000']) {
      await parley.messages.send({
        connection_id: connection!.id,
        to,
        type: 'text',
        text: 'Bonjour ! Votre commande A-1042 est confirmée et partira demain matin.',
      });
    }
    await control.createFault({
      path: '/v1/messages/*',
      key_prefix: server.sandboxKey.slice(0, 20),
      fault: { status: 503, code: 'internal_error', retry_after: 30 },
    });
    await server.emulator.clock.advance(10_000);
    await server.emulator.idle();
    const live = await control.createApplication({ name: 'Live layout app', environment: 'live' });
    liveAppId = live.id;
    await control.createConnection(live.id, { phone_number: '+33100000001', name: 'Shop' });
    await control.createKey(appId);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  const open = async (view: string) => {
    const app = view === 'connections' ? liveAppId : appId;
    await page.goto('about:blank');
    await page.goto(`${server.consoleUrl}#view=${view}&app=${app}`);
    await page.locator(`section#${view}`).waitFor();
    const loaded: Record<string, string> = {
      timeline: '#timeline-list tr[data-seq]',
      messages: '#message-list tr[data-message-id]',
      conversations: '#conversation-list .threads li',
      deliveries: '#delivery-list tr[data-delivery-id]',
      endpoints: '#endpoint-list td.chaos-settings .badge',
      keys: '#usage-list tbody tr',
      connections: '#connection-list article',
      testing: '#magic-numbers tbody tr',
    };
    await page.locator(loaded[view]!).first().waitFor();
    if (view === 'testing') await page.locator('#fault-list tr[data-fault-id]').waitFor();
    // The details a click opens are part of the view.
    if (view === 'timeline')
      await page.locator('#timeline-list tr[data-kind="delivery"] button').first().click();
    if (view === 'messages') {
      await page.locator('#message-list tr[data-message-id] button').first().click();
      await page.locator('#message-deliveries tr[data-delivery-id]').first().waitFor();
    }
    if (view === 'conversations') {
      await page.locator('#conversation-list .threads button').first().click();
      await page.locator('ol.thread li.bubble').first().waitFor();
    }
    if (view === 'deliveries') await page.locator('#delivery-list summary').first().click();
    if (view === 'endpoints') await page.locator('#endpoint-list td.chaos-settings summary').click();
  };

  for (const width of [1280, 390]) {
    it(`shows every view whole at ${width} px, in light and dark`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const found: Record<string, string[]> = {};
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const [view] of VIEWS) {
          await open(view);
          const problems = await page.evaluate(layoutProblems);
          if (problems.length > 0) found[`${view} ${scheme}`] = problems;
          if (process.env.PARLEY_LAYOUT_SHOTS === '1') {
            await page.screenshot({ path: `/tmp/layout-${view}-${width}-${scheme}.png`, fullPage: true });
          }
        }
      }
      expect(found).toEqual({});
      expect(pageErrors).toEqual([]);
    });
  }

  it('styles the number inputs as the text inputs beside them, in both themes', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await open('testing');
    const look = (selector: string) =>
      page.locator(selector).evaluate((input) => {
        const style = getComputedStyle(input);
        return [
          style.backgroundColor,
          style.color,
          style.borderTopColor,
          style.borderTopWidth,
          style.borderRadius,
          style.paddingLeft,
          style.fontSize,
          style.fontFamily,
        ];
      });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const text = await look('#fault-path');
      for (const number of ['#fault-times', '#fault-status', '#fault-retry-after']) {
        expect({ scheme, number, look: await look(number) }).toEqual({ scheme, number, look: text });
      }
    }
  });

  it('names no spec section a user does not have in the magic recipients', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await open('testing');
    const rows = page.locator('#magic-numbers tbody tr');
    expect(await rows.first().locator('td').nth(2).textContent()).toBe(
      'Any number ending in 0000: accepted (202) as failed with recipient_unreachable, its status event queued at once.',
    );
    expect(await page.locator('#magic-numbers').textContent()).not.toMatch(/\bspec\b/i);
  });

  it('shows under an endpoint’s URL the description its creator gave it (what `parley listen` is to set)', async () => {
    // Given to the answer here, so the rendering is checked apart from the emulator (the next test uses its own).
    const description = 'parley listen → http://localhost:3000/webhooks';
    await page.route('**/_emulator/endpoints?*', async (route) => {
      const response = await route.fetch();
      const list = (await response.json()) as { data: object[] };
      await route.fulfill({
        response,
        json: { ...list, data: list.data.map((endpoint) => ({ ...endpoint, description })) },
      });
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await open('endpoints');
    expect(await page.locator('#endpoint-list td.content .endpoint-description').allTextContents()).toEqual([
      description,
    ]);
    await page.unrouteAll();
    await open('endpoints');
    expect(await page.locator('#endpoint-list .endpoint-description').count()).toBe(0);
  });

  it('shows the description the emulator keeps (set over the control API, as `parley listen` does), whole at 1280 and 390 px', async () => {
    const control = server.emulator.control;
    const [endpoint] = (await control.listEndpoints({ applicationId: appId })).data;
    // At the emulator's 200-character limit, most of it one unbroken URL as `parley listen` sends.
    const forwardTo = `http://127.0.0.1:3000/${'webhooks/'.repeat(20)}`;
    const description = `${`parley listen → ${forwardTo}`.slice(0, 199)}…`;
    expect([...description]).toHaveLength(200);
    for (const shown of ['parley listen → http://127.0.0.1:3000/webhooks', description]) {
      await control.updateEndpoint(endpoint!.id, { description: shown });
      try {
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await open('endpoints');
          expect(
            await page.locator('#endpoint-list td.content .endpoint-description').allTextContents(),
          ).toEqual([shown]);
          expect({ width, problems: await page.evaluate(layoutProblems) }).toEqual({ width, problems: [] });
        }
      } finally {
        await control.updateEndpoint(endpoint!.id, { description: null });
      }
    }
    expect(pageErrors).toEqual([]);
  });

  it('asks for nothing that is not there: /favicon.ico is a small icon, and no request of the page fails', async () => {
    failed.length = 0;
    await open('timeline');
    const icon = await fetch(new URL('/favicon.ico', server.url));
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    const body = await icon.text();
    expect(body.startsWith('<svg')).toBe(true);
    expect(body.length).toBeLessThan(1024);
    expect(failed).toEqual([]);
  });
});
