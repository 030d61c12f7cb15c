import { type EmulatorServer, startEmulatorServer } from '@parley/emulator';
import { createControlClient } from '@parley/emulator/control';
import { Parley, verifyWebhook } from '@parley/sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, runBrowserTests, startReceiver } from './_console-browser';

const IMAGES = new URL('../../../docs/images/', import.meta.url);
const VIEWS = [
  ['timeline', 'Timeline'],
  ['messages', 'Messages'],
  ['conversations', 'Conversations'],
  ['deliveries', 'Webhook deliveries'],
  ['endpoints', 'Endpoints'],
  ['keys', 'Applications and keys'],
  ['connections', 'Connections'],
] as const;

// Chromium on a shared two-core machine: generous time; the clock only moves when a test moves it.
describe.runIf(runBrowserTests)('console views in Chromium', { timeout: 90_000 }, () => {
  let server: EmulatorServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  const shown = { key: '', secrets: [] as string[] };

  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0, clock: 'frozen' });
    receiver = await startReceiver();
    browser = await launchChromium();
    context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  const status = () => page.locator('#status-message');
  const view = (name: string) =>
    page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name }).click();
  const announced = async (text: string | RegExp) => {
    await status().filter({ hasText: text }).waitFor();
    return (await status().textContent()) ?? '';
  };
  const advance = async (label: string) => {
    await page.getByRole('button', { name: label, exact: true }).click();
    await announced('Clock advanced');
    await server.emulator.idle();
  };
  const createApp = async (name: string, environment: 'sandbox' | 'live') => {
    await page.getByText('New application').click();
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Environment').selectOption(environment);
    await page.getByRole('button', { name: 'Create application' }).click();
    await announced(`Application ${name} (${environment}) created.`);
  };

  it('creates and copies a key, adds an endpoint, and follows a page send and an SDK send live', async () => {
    await page.goto(server.consoleUrl);
    await page.locator('#live-state', { hasText: 'Live' }).waitFor();
    await createApp('Views app', 'sandbox');

    await view('Applications and keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    shown.key = (await page.locator('#key-secret code[data-secret]').textContent()) ?? '';
    expect(shown.key).toMatch(/^prl_sandbox_[0-9A-Za-z]{32}$/);
    await page.getByRole('button', { name: 'Copy api key' }).click();
    await announced('Copied to the clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown.key);

    await view('Endpoints');
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    shown.secrets.push((await page.locator('#endpoint-secret code[data-secret]').textContent()) ?? '');
    expect(shown.secrets[0]).toMatch(/^whsec_[0-9A-Za-z]{32}$/);

    await view('Messages');
    await page
      .getByLabel('Template', { exact: true })
      .selectOption({ label: 'order_confirmation (fr, 2 variables)' });
    await page.getByLabel('Variable {{1}}').fill('Ana');
    await page.getByLabel('Variable {{2}}').fill('A-1042');
    await page
      .locator('.preview', { hasText: 'Bonjour Ana, votre commande A-1042 est confirmée.' })
      .waitFor();
    await page.getByRole('button', { name: 'Send message' }).click();
    const pageMessageId = /Message ([0-9a-f-]{36}) queued/.exec(
      await announced(/^Message .* queued\.$/),
    )![1]!;

    const parley = new Parley({ apiKey: shown.key, baseUrl: server.baseUrl, maxRetries: 0 });
    const [connection] = (await parley.connections.list()).data;
    const sdkMessage = await parley.messages.send({
      connection_id: connection!.id,
      to: '+33698765432',
      type: 'text',
      text: 'Bonjour from the SDK',
    });
    const row = (id: string) => page.locator(`#message-list tr[data-message-id="${id}"]`);
    // No Refresh: the SDK's message arrives through the stream.
    for (const id of [pageMessageId, sdkMessage.id])
      await row(id).locator('.badge', { hasText: 'queued' }).waitFor();
    await advance('+1 s');
    await advance('+1 s');
    for (const id of [pageMessageId, sdkMessage.id])
      await row(id).locator('.badge', { hasText: 'sent' }).waitFor();
    await advance('+5 s');
    for (const id of [pageMessageId, sdkMessage.id]) {
      await row(id).locator('.badge', { hasText: 'delivered' }).waitFor();
    }

    await view('Timeline');
    await page.getByLabel('Type').selectOption({ label: '/v1 requests' });
    const request = page.locator('#timeline-list tr', { hasText: 'POST /v1/messages → 202' });
    await request.getByRole('button').click();
    const detail = page.locator('#timeline-detail pre');
    await expect(detail.textContent()).resolves.toMatch(/"request_id": "req_[0-9a-f]{32}"/);
    expect(await detail.textContent()).toContain(`"key_prefix": "${shown.key.slice(0, 16)}"`);
    await page.getByLabel('Type').selectOption('message.status_updated');
    await page.locator('#timeline-list tr[data-kind="event"]').first().waitFor();
  });

  it('shows a failing receiver’s attempts and next retry, replays, and rotates a secret shown once', async () => {
    receiver.answer.status = 500;
    await view('Endpoints');
    await page.getByRole('button', { name: /^Send test event to / }).click();
    const eventId = /evt_[0-9a-f]{32}/.exec(await announced(/^Test event evt_/))![0];
    await advance('+1 s');
    await view('Webhook deliveries');
    const rows = page.locator('#delivery-list tr', { hasText: eventId });
    await rows.locator('.badge', { hasText: 'pending' }).waitFor();
    await rows.locator('summary', { hasText: '1 · last: HTTP 500' }).click();
    await rows.locator('ol.attempts li', { hasText: /HTTP 500 · \d+(\.\d+)? ms$/ }).waitFor();
    expect(await rows.locator('td').nth(4).textContent()).toMatch(/ UTC$/);

    receiver.answer.status = 200;
    await advance('+1 min');
    await rows.locator('summary', { hasText: '2 · last: HTTP 200' }).waitFor();
    await rows.getByRole('button', { name: /^Replay / }).click();
    await announced('Replay queued');
    await advance('+1 s');
    await expect.poll(() => rows.count()).toBe(2);
    await rows.first().locator('.badge', { hasText: 'delivered' }).waitFor();
    expect(
      receiver.received.filter((request) => request.headers['parley-event-id'] === eventId),
    ).toHaveLength(3);

    await view('Endpoints');
    await page.getByRole('button', { name: /^Rotate secret of / }).click();
    await announced('Secret rotated.');
    const rotated = (await page.locator('#endpoint-secret code[data-secret]').textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(shown.secrets[0]);
    shown.secrets.push(rotated);
    await page.getByRole('button', { name: /^Send test event to / }).click();
    const testId = /evt_[0-9a-f]{32}/.exec(await announced(/^Test event evt_/))![0];
    await advance('+1 s');
    const delivery = receiver.received.find((request) => request.headers['parley-event-id'] === testId)!;
    await expect(verifyWebhook(delivery.body, delivery.headers, rotated)).resolves.toMatchObject({
      id: testId,
    });
  });

  it('connects a live number, simulates an inbound message, disconnects; a revoked key gets the SDK a 401', async () => {
    await createApp('Live views app', 'live');
    await view('Connections');
    await page.getByLabel('Phone number').fill('+33100000001');
    await page.getByLabel('Display name').fill('Shop');
    await page.getByRole('button', { name: 'Connect number' }).click();
    await announced('Connection Shop (+33100000001) connected.');
    await page.getByLabel('Inbound text').fill('Bonjour ! Vous êtes ouverts ?');
    await page.getByRole('button', { name: 'Simulate inbound message to Shop' }).click();
    await announced(/^Inbound message .* received from \+33612345678\.$/);
    await view('Messages');
    await page
      .locator('#message-list tr', { hasText: 'from +33612345678' })
      .locator('.badge', { hasText: 'received' })
      .waitFor();
    await view('Connections');
    await page.getByRole('button', { name: 'Disconnect Shop' }).click();
    await page.locator('#connection-list .badge', { hasText: 'disconnected' }).waitFor();
    await page.getByLabel('Phone number').fill('+33100000002');
    await page.getByLabel('Display name').fill('Support');
    await page.getByRole('button', { name: 'Connect number' }).click();
    await announced('Connection Support (+33100000002) connected.');

    await view('Applications and keys');
    await page.getByLabel(/I accept the developer agreement/).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const liveKey = (await page.locator('#key-secret code[data-secret]').textContent()) ?? '';
    const parley = new Parley({ apiKey: liveKey, baseUrl: server.baseUrl, maxRetries: 0 });
    await expect(parley.status.get()).resolves.toMatchObject({ environment: 'live' });
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: /^Revoke key prl_live_/ }).click();
    await announced('Key revoked.');
    await expect(parley.status.get()).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('falls back to polling while the stream is down, and goes live again', async () => {
    const polling = await context.newPage();
    await polling.route('**/_emulator/stream', (route) => route.abort());
    await polling.goto(`${server.consoleUrl}#view=messages`);
    await polling.locator('#live-state', { hasText: 'Polling' }).waitFor();
    const parley = new Parley({ apiKey: server.sandboxKey, baseUrl: server.baseUrl, maxRetries: 0 });
    const [connection] = (await parley.connections.list()).data;
    const message = await parley.messages.send({
      connection_id: connection!.id,
      to: '+33611111111',
      type: 'text',
      text: 'While the stream is down',
    });
    await polling.locator(`#message-list tr[data-message-id="${message.id}"]`).waitFor();
    await polling.unroute('**/_emulator/stream');
    await polling.locator('#live-state', { hasText: 'Live' }).waitFor({ timeout: 20_000 });
    await polling.close();
  });

  it('adds a fault from the Testing tools view and an SDK call gets it, one only for a key prefix; shows chaos per endpoint', async () => {
    await page.goto(`${server.consoleUrl}#view=testing`);
    await page.locator('#app-select').selectOption({ label: 'Views app (sandbox)' });
    await page.locator('#workspace-clock-kind', { hasText: 'Shares the global clock' }).waitFor();
    await page.locator('#magic-numbers td', { hasText: '+15550101006' }).waitFor();
    await page.locator('#fault-method').selectOption('POST');
    await page.locator('#fault-path').fill('/v1/messages');
    await page.locator('#fault-status').fill('503');
    await page.locator('#fault-code').fill('internal_error');
    await page.getByRole('button', { name: 'Add fault' }).click();
    await announced('Fault added: 503 internal_error.');
    await page.locator('#fault-list tr', { hasText: '1 of 1' }).waitFor();

    const parley = new Parley({ apiKey: server.sandboxKey, baseUrl: server.baseUrl, maxRetries: 0 });
    const [connection] = (await parley.connections.list()).data;
    const send = () =>
      parley.messages.send({
        connection_id: connection!.id,
        to: '+33612345678',
        type: 'text',
        text: 'Faulted',
      });
    await expect(send()).rejects.toMatchObject({ status: 503, code: 'internal_error' });
    await page.locator('#fault-list tr', { hasText: '0 of 1' }).waitFor();
    await expect(send()).resolves.toMatchObject({ status: 'queued' });
    await page.getByRole('button', { name: 'Clear all faults' }).click();
    await announced('Every fault removed.');
    await page.locator('#fault-list', { hasText: 'No fault' }).waitFor();

    // Tied to a key prefix: only requests with that key get it. A prefix that is not one is refused at it.
    const keyPrefix = page.getByLabel('API key prefix (optional)');
    await page.locator('#fault-method').selectOption('');
    await page.locator('#fault-path').fill('');
    await keyPrefix.fill('sandbox_AbCd');
    await page.getByRole('button', { name: 'Add fault' }).click();
    await page.locator('#fault-error', { hasText: 'key_prefix must be the start of an API key' }).waitFor();
    expect(await keyPrefix.getAttribute('aria-invalid')).toBe('true');
    expect(await keyPrefix.getAttribute('aria-describedby')).toBe('fault-error');
    const prefix = server.sandboxKey.slice(0, 20);
    await keyPrefix.fill(prefix);
    await page.getByRole('button', { name: 'Add fault' }).click();
    await announced('Fault added: 503 internal_error.');
    expect(await keyPrefix.getAttribute('aria-invalid')).toBe('false');
    expect((await server.emulator.control.listFaults()).data).toEqual([
      expect.objectContaining({
        method: null,
        path: null,
        key_id: null,
        key_prefix: prefix,
        times: 1,
        remaining: 1,
        fault: { status: 503, code: 'internal_error' },
      }),
    ]);
    const faultRow = page.locator('#fault-list tbody tr');
    await faultRow.filter({ hasText: '1 of 1' }).waitFor();
    expect(await faultRow.locator('td').first().textContent()).toBe(`any any /v1 path key ${prefix}…`);
    const statusWith = async (key: string) =>
      (await fetch(`${server.baseUrl}/connections`, { headers: { authorization: `Bearer ${key}` } })).status;
    expect(await statusWith(shown.key)).toBe(200);
    expect(await statusWith(server.sandboxKey)).toBe(503);
    await faultRow.filter({ hasText: '0 of 1' }).waitFor();
    // One tied to a key id (set over HTTP, as a script would: the open page follows it live).
    const seedApp = (await server.emulator.control.listApplications()).data[0]!;
    const overHttp = createControlClient({ baseUrl: server.url });
    const keyId = (await overHttp.createKey(seedApp.id)).id;
    expect(await overHttp.createFault({ key_id: keyId, fault: { drop: true } })).toMatchObject({
      key_id: keyId,
    });
    await faultRow.filter({ hasText: `key ${keyId}` }).waitFor();
    await page.getByRole('button', { name: 'Clear all faults' }).click();
    await page.locator('#fault-list', { hasText: 'No fault' }).waitFor();

    const control = server.emulator.control;
    const app = (await control.listApplications()).data.find((candidate) => candidate.name === 'Views app')!;
    const endpoint = await control.createEndpoint(app.id, { url: receiver.url, events: ['webhook.test'] });
    // Set over HTTP, as a script would: the control call is published on the activity stream, so the
    // open page refreshes (an in-process call publishes nothing, and the row could keep "off").
    const chaos = await overHttp.setChaos(endpoint.id, { duplicate: { next: 2 }, seed: 7 });
    expect(chaos).toMatchObject({ duplicate: { next: 2 }, seed: 7 });
    await view('Endpoints');
    await page
      .locator(`tr[data-endpoint-id="${endpoint.id}"] td.chaos-settings`, { hasText: 'duplicate next 2' })
      .waitFor();
    await control.deleteEndpoint(endpoint.id);
    expect(pageErrors).toEqual([]);
  });

  it('has every view in light and dark (screenshots), without layout holes at 1280 and 800 px', async () => {
    await page.goto(server.consoleUrl);
    await page.locator('#app-select').selectOption({ label: 'Views app (sandbox)' });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.locator('#app-select').selectOption({ label: 'Views app (sandbox)' });
      for (const [name, title] of VIEWS) {
        await view(title);
        await page.locator(`section#${name}`).waitFor();
        await page.locator('main .load-error').waitFor({ state: 'detached' });
        if (name === 'timeline') await page.locator('#timeline-list tr').nth(3).getByRole('button').click();
        if (name === 'messages') {
          await page.locator('#message-list tr[data-message-id] button').first().click();
          await page.locator('#message-detail #message-statuses li').first().waitFor();
        }
        if (name === 'conversations') {
          await page.locator('#conversation-list .threads button').first().click();
          await page.locator('ol.thread li.bubble').first().waitFor();
        }
        if (name === 'deliveries') await page.locator('#delivery-list summary').first().click();
        if (name === 'connections') {
          await page.locator('#app-select').selectOption({ label: 'Live views app (live)' });
          await page.locator('#connection-list article').nth(1).waitFor();
        }
        await page.mouse.move(0, 0);
        // Every view renders in both schemes on every run; the docs' images are rewritten only on
        // request (PARLEY_SCREENSHOTS=1), so a test run leaves the working tree clean.
        const image = await page.screenshot();
        expect(image.byteLength).toBeGreaterThan(10_000);
        if (process.env.PARLEY_SCREENSHOTS === '1') {
          await page.screenshot({ path: new URL(`console-${name}-${scheme}.png`, IMAGES).pathname });
        }
      }
    }
    for (const width of [1280, 800]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, title] of VIEWS) {
        await view(title);
        await page.locator(`section#${name}`).waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect({ name, width, overflow }).toEqual({ name, width, overflow: 0 });
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(page.url()).not.toContain(shown.key);
    for (const secret of shown.secrets) expect(await page.content()).not.toContain(secret);
    expect(pageErrors).toEqual([]);
  });
});

describe.runIf(runBrowserTests)('console load time in Chromium', { timeout: 120_000 }, () => {
  it('shows the newest page of 10,000 messages quickly (figure printed)', async () => {
    const server = await startEmulatorServer({ port: 0, clock: 'frozen', rateLimits: false });
    const browser = await launchChromium();
    try {
      const app = (await server.emulator.control.listApplications()).data[0]!;
      const [connection] = (await server.emulator.control.listApplicationConnections(app.id)).data;
      for (let index = 0; index < 10_000; index++) {
        await server.emulator.control.sendMessage(app.id, {
          connection_id: connection!.id,
          to: `+3361${String(index).padStart(7, '0')}`,
          type: 'text',
          text: `Message ${index}`,
        });
      }
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const figures: Record<string, number> = {};
      for (const name of ['messages', 'timeline']) {
        const times: number[] = [];
        for (let run = 0; run < 3; run++) {
          await page.goto(`${server.consoleUrl}#view=${name}&app=${app.id}`);
          await page.waitForFunction(() => performance.getEntriesByName('console-ready').length > 0);
          times.push(await page.evaluate(() => performance.getEntriesByName('console-ready')[0]!.startTime));
          await page.goto('about:blank');
        }
        figures[name] = Math.round(Math.min(...times));
      }
      const rows = await (async () => {
        await page.goto(`${server.consoleUrl}#view=messages&app=${app.id}`);
        await page.locator('#message-list tbody tr').nth(49).waitFor();
        return page.locator('#message-list tbody tr').count();
      })();
      console.log(
        `console load with 10,000 messages (ms from navigation to data shown, best of 3): ${JSON.stringify(figures)}`,
      );
      expect(rows).toBe(50);
      // The target is 300 ms; the bound here leaves room for a busy shared machine.
      expect(figures.messages).toBeLessThan(3_000);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
