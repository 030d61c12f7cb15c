import { createHash } from 'node:crypto';
import { Script } from 'node:vm';
import { SCOPES, WEBHOOK_EVENT_TYPES } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { renderConsolePage } from './console-page';

const page = renderConsolePage();
const script = /<script>([\s\S]*)<\/script>/.exec(page)?.[1] ?? '';

describe('renderConsolePage', () => {
  it('is one complete HTML document with its script compiling as JavaScript', () => {
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).toContain('<html lang="en">');
    expect(page.trimEnd().endsWith('</html>')).toBe(true);
    expect(script.length).toBeGreaterThan(1000);
    expect(() => new Script(script)).not.toThrow();
  });

  it('loads nothing from elsewhere and allows only its own script by hash', () => {
    expect(page).not.toMatch(/\b(src|href)=/);
    expect(page).not.toMatch(/https?:\/\/(?!127\.0\.0\.1:3000\/webhooks")/);
    const policy = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(page)?.[1] ?? '';
    const hash = createHash('sha256').update(script).digest('base64');
    expect(policy).toContain(`script-src 'sha256-${hash}'`);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'self'");
  });

  it('offers every scope and event type of the SDK, from its one definition', () => {
    const config = JSON.parse(
      /<script type="application\/json" id="console-config">([^<]*)<\/script>/.exec(page)![1]!,
    );
    expect(config).toEqual({ scopes: [...SCOPES], eventTypes: [...WEBHOOK_EVENT_TYPES] });
  });

  it('labels its controls and announces results to assistive technology', () => {
    for (const id of ['app-select', 'app-name', 'app-environment', 'endpoint-url']) {
      expect(page).toContain(`for="${id}"`);
      expect(page).toContain(`id="${id}"`);
    }
    expect(page).toContain('role="status" aria-live="polite"');
    expect(page).toContain('role="alert"');
  });
});
