import { describe, expect, it } from 'vitest';
import { deliveryAgent, KEPT_AGENTS } from './_pinned-agents';

describe('deliveryAgent', () => {
  it('keeps one agent per origin and address set, and closes the least recently used beyond the bound', () => {
    const first = deliveryAgent('https://a.parley.test', ['93.184.216.34']);
    expect(deliveryAgent('https://a.parley.test', ['93.184.216.34'])).toBe(first);
    expect(deliveryAgent('https://a.parley.test', ['93.184.216.35'])).not.toBe(first);
    expect(deliveryAgent('https://a.parley.test', ['93.184.216.34'], { ca: 'test' })).not.toBe(first);

    const second = deliveryAgent('https://b.parley.test', ['93.184.216.34']);
    deliveryAgent('https://a.parley.test', ['93.184.216.34']); // used again: now the newest
    for (let index = 1; index < KEPT_AGENTS; index++) deliveryAgent(`https://n${index}.parley.test`, null);
    expect(second.closed).toBe(true);
    expect(first.closed).toBe(false);
    deliveryAgent('https://a.parley.test', ['93.184.216.34']);
    for (let index = 0; index < KEPT_AGENTS; index++) deliveryAgent(`https://m${index}.parley.test`, null);
    expect(first.closed).toBe(true);
  });
});
