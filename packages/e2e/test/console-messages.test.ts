import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { Parley } from '@parley/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, runBrowserTests, startReceiver } from './_console-browser';

// The Messages view names each message by its id, and a row opens the message whole: its fields,
// the statuses it went through with their times, its events and their deliveries.
describe.runIf(runBrowserTests)('console: a message opened whole, in Chromium', { timeout: 60_000 }, () => {
  let server: EmulatorServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;
  let page: Page;
  let parley: Parley;
  let appId: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0, clock: 'frozen', now: Date.UTC(2030, 0, 1) });
    receiver = await startReceiver();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    parley = new Parley({ apiKey: server.sandboxKey, baseUrl: server.baseUrl, maxRetries: 0 });
    appId = (await server.emulator.control.listApplications()).data[0]!.id;
    await server.emulator.control.createEndpoint(appId, {
      url: receiver.url,
      events: ['message.status_updated'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  const send = async (to: string) => {
    const [connection] = (await parley.connections.list()).data;
    return parley.messages.send({ connection_id: connection!.id, to, type: 'text', text: `to ${to}` });
  };

  it('shows the id of each message; a click on its row shows every field, each status with its time, its events and deliveries', async () => {
    const sent = await send('+15550101002');
    await server.emulator.clock.advance(10_000);
    await server.emulator.idle();
    const message = await parley.messages.get(sent.id);
    expect(message.status).toBe('read');
    const events = (await server.emulator.control.listEvents({ applicationId: appId })).data.filter(
      (event) => event.type === 'message.status_updated' && event.data.message.id === sent.id,
    );
    expect(events).toHaveLength(3);
    const deliveries = (await server.emulator.control.listDeliveries({ applicationId: appId })).data;

    await page.goto(`${server.consoleUrl}#view=messages&app=${appId}`);
    const row = page.locator(`#message-list tr[data-message-id="${sent.id}"]`);
    expect(await row.locator('td').first().textContent()).toBe(sent.id);
    await row.locator('td.content').click();
    const detail = page.locator('#message-detail');
    await detail.locator('#message-statuses li').nth(3).waitFor();
    expect(new URL(page.url()).hash).toContain(`message=${sent.id}`);

    expect(await detail.locator('dt').allTextContents()).toEqual(Object.keys(message));
    const field = (name: string) =>
      detail
        .locator('dl > div', { has: page.locator('dt', { hasText: new RegExp(`^${name}$`) }) })
        .locator('dd');
    expect(await field('id').textContent()).toBe(sent.id);
    expect(await field('status').textContent()).toBe('read');
    expect(await field('to').textContent()).toBe('+15550101002');
    expect(await detail.locator('#message-statuses li').allTextContents()).toEqual([
      'queued 2030-01-01 00:00:00 UTC',
      'sent 2030-01-01 00:00:02 UTC',
      'delivered 2030-01-01 00:00:05 UTC',
      'read 2030-01-01 00:00:10 UTC',
    ]);
    expect(
      await detail
        .locator('#message-events li')
        .evaluateAll((items) => items.map((item) => item.dataset.eventId)),
    ).toEqual(events.map((event) => event.id).reverse());
    const deliveryIds = deliveries.filter((delivery) =>
      events.some((event) => event.id === delivery.event_id),
    );
    expect(deliveryIds).toHaveLength(3);
    const shownDeliveries = detail.locator('#message-deliveries tr[data-delivery-id]');
    expect(
      (await shownDeliveries.evaluateAll((rows) => rows.map((row) => row.dataset.deliveryId))).sort(),
    ).toEqual(deliveryIds.map((delivery) => delivery.id).sort());
    expect(await shownDeliveries.locator('.badge', { hasText: 'delivered' }).count()).toBe(3);

    // Opened from the hash too (a reload comes back to it); Close forgets it.
    await page.reload();
    await detail.locator('#message-statuses li').nth(3).waitFor();
    await detail.getByRole('button', { name: 'Close' }).click();
    await detail.waitFor({ state: 'detached' });
    expect(new URL(page.url()).hash).not.toContain('message=');
    expect(pageErrors).toEqual([]);
  });

  it('follows an opened message live: each status joins its history as the clock moves', async () => {
    const sent = await send('+15550101002');
    await page.goto(`${server.consoleUrl}#view=messages&app=${appId}&message=${sent.id}`);
    await page.locator('#live-state', { hasText: 'Live' }).waitFor();
    const statuses = page.locator('#message-detail #message-statuses li');
    await statuses.first().waitFor();
    expect(await statuses.allTextContents()).toEqual(['queued 2030-01-01 00:00:10 UTC']);
    for (const [steps, last] of [
      [3, 'delivered 2030-01-01 00:00:15 UTC'],
      [4, 'read 2030-01-01 00:00:20 UTC'],
    ] as const) {
      await page.getByRole('button', { name: '+5 s', exact: true }).click();
      await statuses
        .nth(steps - 1)
        .filter({ hasText: last })
        .waitFor();
    }
    expect(await statuses.allTextContents()).toEqual([
      'queued 2030-01-01 00:00:10 UTC',
      'sent 2030-01-01 00:00:12 UTC',
      'delivered 2030-01-01 00:00:15 UTC',
      'read 2030-01-01 00:00:20 UTC',
    ]);
    await page.locator('#message-detail #message-events li').nth(2).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('reads only the first page of events and of deliveries for the newest of many messages', async () => {
    const control = server.emulator.control;
    const [connection] = (await control.listApplicationConnections(appId)).data;
    for (let index = 0; index < 150; index++) {
      await control.sendMessage(appId, {
        connection_id: connection!.id,
        to: `+3361${String(index).padStart(7, '0')}`,
        type: 'text',
        text: `Message ${index}`,
      });
    }
    // Their statuses run their course before the newest is sent, as in any run that is not one instant.
    await server.emulator.clock.advance(10_000);
    await server.emulator.idle();
    const newest = await control.sendMessage(appId, {
      connection_id: connection!.id,
      to: '+33699999999',
      type: 'text',
      text: 'The newest',
    });
    await server.emulator.clock.advance(5_000);
    await server.emulator.idle();
    // 151 messages × 2 status events, each delivered to the endpoint: pages and pages of both.
    expect((await control.listDeliveries({ applicationId: appId, limit: 100 })).has_more).toBe(true);
    const reads: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/_emulator/deliveries' || url.pathname === '/_emulator/events')
        reads.push(url.search);
    });
    await page.goto('about:blank');
    await page.goto(`${server.consoleUrl}#view=messages&app=${appId}&message=${newest.id}`);
    const statuses = page.locator('#message-detail #message-statuses li');
    await statuses.nth(2).waitFor();
    await page.locator('#message-detail #message-deliveries tr[data-delivery-id]').nth(1).waitFor();
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.filter((search) => search.includes('cursor='))).toEqual([]);
    expect(await page.locator('#message-detail').textContent()).not.toContain('Only the newest');
  });

  it('a send failed at once has one status, at its creation, and its id button opens it', async () => {
    const failed = await send('+33600000000');
    expect(failed.status).toBe('failed');
    await page.goto(`${server.consoleUrl}#view=messages&app=${appId}`);
    await page.getByRole('button', { name: `Open message ${failed.id}` }).click();
    const statuses = page.locator('#message-detail #message-statuses li');
    await statuses.first().waitFor();
    // Failed when it was sent, with its event then.
    const at = failed.created_at.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC');
    expect(await statuses.allTextContents()).toEqual([`failed ${at}`]);
    expect(pageErrors).toEqual([]);
  });
});
