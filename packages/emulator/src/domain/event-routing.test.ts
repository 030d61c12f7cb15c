import { API_VERSION } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { buildEvent, routeEvent } from './event-routing';
import type { ApplicationRecord } from './records';

const app = (id: string, workspace_id: string, environment: 'live' | 'sandbox'): ApplicationRecord => ({
  id,
  workspace_id,
  name: id,
  environment,
  created_at: '2026-10-14T00:00:00Z',
});

// Two workspaces, each with live and sandbox applications.
const LIVE_A1 = app('live-a1', 'ws-a', 'live');
const LIVE_A2 = app('live-a2', 'ws-a', 'live');
const SANDBOX_A1 = app('sandbox-a1', 'ws-a', 'sandbox');
const SANDBOX_A2 = app('sandbox-a2', 'ws-a', 'sandbox');
const LIVE_B = app('live-b', 'ws-b', 'live');
const SANDBOX_B = app('sandbox-b', 'ws-b', 'sandbox');
const APPLICATIONS = Object.fromEntries(
  [LIVE_A1, SANDBOX_A1, LIVE_A2, SANDBOX_A2, LIVE_B, SANDBOX_B].map((each) => [each.id, each]),
);

describe('routeEvent (spec 6.1)', () => {
  test('a live event: every live application of its workspace, itself included, in store order', () => {
    expect(routeEvent(LIVE_A1, APPLICATIONS)).toEqual(['live-a1', 'live-a2']);
    expect(routeEvent(LIVE_A2, APPLICATIONS)).toEqual(['live-a1', 'live-a2']);
    expect(routeEvent(LIVE_B, APPLICATIONS)).toEqual(['live-b']);
  });

  test('a sandbox event: only the sandbox application it concerns', () => {
    expect(routeEvent(SANDBOX_A1, APPLICATIONS)).toEqual(['sandbox-a1']);
    expect(routeEvent(SANDBOX_A2, APPLICATIONS)).toEqual(['sandbox-a2']);
    expect(routeEvent(SANDBOX_B, APPLICATIONS)).toEqual(['sandbox-b']);
  });

  test('a live workspace without other applications: only the source', () => {
    expect(routeEvent(LIVE_A1, { [LIVE_A1.id]: LIVE_A1 })).toEqual(['live-a1']);
  });
});

describe('buildEvent (spec 6.2)', () => {
  const NOW = Date.UTC(2026, 9, 14, 9, 30, 0, 750);

  test('the envelope: this API version, created now in whole seconds, evt_ id, livemode as given', () => {
    const event = buildEvent('webhook.test', { message: 'hi' }, NOW, false);
    expect(event).toStrictEqual({
      api_version: API_VERSION,
      created_at: '2026-10-14T09:30:00Z',
      data: { message: 'hi' },
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      livemode: false,
      type: 'webhook.test',
    });
    expect(API_VERSION).toBe('2026-10-14');
    expect(buildEvent('webhook.test', { message: 'hi' }, NOW, true).livemode).toBe(true);
  });

  test('every event its own id', () => {
    const ids = Array.from(
      { length: 100 },
      () => buildEvent('webhook.test', { message: 'x' }, NOW, false).id,
    );
    expect(new Set(ids).size).toBe(100);
  });
});
