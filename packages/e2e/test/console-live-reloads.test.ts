import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { Parley } from '@parley/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, runBrowserTests } from './_console-browser';

// What an item on the activity stream makes the console read again: only the views its kind can
// change, never every view on every item.
describe.runIf(runBrowserTests)(
  'console: reloads chosen by the kind of item, in Chromium',
  { timeout: 60_000 },
  () => {
    let server: EmulatorServer;
    let browser: Browser;
    let page: Page;
    let parley: Parley;
    let appId: string;
    const requested: string[] = [];
    let inFlight = 0;

    beforeAll(async () => {
      server = await startEmulatorServer({ port: 0, clock: 'frozen' });
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      parley = new Parley({ apiKey: server.sandboxKey, baseUrl: server.baseUrl, maxRetries: 0 });
      appId = (await server.emulator.control.listApplications()).data[0]!.id;
      const controlRead = (url: string) => {
        const { pathname } = new URL(url);
        return pathname.startsWith('/_emulator/') && pathname !== '/_emulator/stream' ? pathname : undefined;
      };
      page.on('request', (request) => {
        const read = controlRead(request.url());
        if (read === undefined) return;
        requested.push(read);
        inFlight++;
      });
      const done = (request: { url(): string }) => {
        if (controlRead(request.url()) !== undefined) inFlight--;
      };
      page.on('requestfinished', done);
      page.on('requestfailed', done);
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    /** Opens a view and waits until its loads, and the full reload when the stream opens, are over. */
    const openSettled = async (view: string, shown: string) => {
      // A fresh document: from the console, a new hash alone would only change the view.
      await page.goto('about:blank');
      requested.length = 0;
      await page.goto(`${server.consoleUrl}#view=${view}&app=${appId}`);
      await page.locator('#live-state', { hasText: 'Live' }).waitFor();
      await page.locator(shown).waitFor();
      // One full reload at load, one when the stream opens: both read the clock.
      await expect.poll(() => requested.filter((path) => path === '/_emulator/clock').length).toBe(2);
      await expect.poll(() => inFlight).toBe(0);
      requested.length = 0;
    };
    const readsAfterSettling = async () => {
      await expect.poll(() => inFlight).toBe(0);
      return [...new Set(requested)].sort();
    };

    it('a message sent through the API reloads the messages list alone', async () => {
      await openSettled('messages', '#message-list .empty');
      const [connection] = (await parley.connections.list()).data;
      const message = await parley.messages.send({
        connection_id: connection!.id,
        to: '+33612345678',
        type: 'text',
        text: 'Only the list reloads',
      });
      await page.locator(`#message-list tr[data-message-id="${message.id}"]`).waitFor();
      expect(await readsAfterSettling()).toEqual(['/_emulator/messages']);
    });

    it('an API request on the Testing tools view reloads the faults (their uses left) alone', async () => {
      await server.emulator.control.createFault({
        path: '/v1/status',
        fault: { status: 503, code: 'internal_error' },
      });
      await openSettled('testing', '#fault-list tr[data-fault-id]');
      await page.locator('#fault-list td', { hasText: '1 of 1' }).waitFor();
      await expect(parley.status.get()).rejects.toMatchObject({ status: 503 });
      await page.locator('#fault-list td', { hasText: '0 of 1' }).waitFor();
      expect(await readsAfterSettling()).toEqual(['/_emulator/faults']);
    });

    it('a change over the control API reloads the application list and the views it can change', async () => {
      await openSettled('endpoints', '#endpoint-list .empty');
      const overHttp = (await import('@parley/emulator/control')).createControlClient({
        baseUrl: server.url,
      });
      const endpoint = await overHttp.createEndpoint(appId, {
        url: 'http://127.0.0.1:9/hooks',
        events: ['webhook.test'],
      });
      await page
        .locator(`#endpoint-list tr[data-endpoint-id="${endpoint.id}"] td.chaos-settings summary`)
        .waitFor();
      expect(await readsAfterSettling()).toEqual([
        '/_emulator/applications',
        '/_emulator/endpoints',
        `/_emulator/endpoints/${endpoint.id}/chaos`,
      ]);
    });
  },
);
