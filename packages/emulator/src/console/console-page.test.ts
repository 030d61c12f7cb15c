import { createHash } from 'node:crypto';
import { SCOPES, WEBHOOK_EVENT_TYPES } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { renderConsolePage } from './console-page';

const clock = { now: '2026-10-14T09:30:15.000Z', mode: 'frozen' as const };
const { html, headers } = await renderConsolePage(clock);
const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
const style = /<style>([\s\S]*)<\/style>/.exec(html)?.[1] ?? '';
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

describe('renderConsolePage', () => {
  it('is one complete HTML document with the bundled app inline', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<html lang="en">');
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(html).toContain('<div id="app"></div>');
    expect(script.length).toBeGreaterThan(5_000);
    expect(style).toMatch(/prefers-color-scheme: ?dark/);
  });

  it('loads nothing from elsewhere and allows only its own script and style by hash', () => {
    expect(html).not.toMatch(/<(script|link|img)\b[^>]*\b(src|href)=/);
    expect(html).not.toMatch(/@import|@font-face|url\(\s*['"]?https?:/);
    const policy = headers['content-security-policy'] ?? '';
    expect(policy).toContain(`script-src 'sha256-${sha256(script)}'`);
    expect(policy).toContain(`style-src 'sha256-${sha256(style)}'`);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
  });

  it('offers every scope and event type of the SDK, from its one definition', () => {
    const config = JSON.parse(
      /<script type="application\/json" id="console-config">([^<]*)<\/script>/.exec(html)![1]!,
    );
    expect(config).toEqual({ scopes: [...SCOPES], eventTypes: [...WEBHOOK_EVENT_TYPES], clock });
  });
});
