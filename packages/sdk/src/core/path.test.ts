import { describe, expect, it } from 'vitest';
import { useTestServer } from '../_test/test-server';
import { path } from './_path';

const server = useTestServer();

/** The TypeError (exactly that class) of `build`. */
function refusal(build: () => string): string {
  let caught: unknown;
  try {
    build();
  } catch (error) {
    caught = error;
  }
  expect(Object.getPrototypeOf(caught)).toBe(TypeError.prototype);
  return (caught as TypeError).message;
}

describe('path', () => {
  it('encodes each segment and keeps the literal parts around them', () => {
    expect(path`connections/${'c/1'}/templates`).toBe('connections/c%2F1/templates');
    expect(path`a/${'?x'}/b/${'#y z'}`).toBe('a/%3Fx/b/%23y%20z');
    expect(path`status`).toBe('status');
    expect(path`${'...'}`).toBe('...');
  });

  it.each([
    ['.', '"."'],
    ['..', '".."'],
    ['', '""'],
    [undefined, 'undefined'],
    [7, '7'],
  ])('refuses the id %j, which would change the path', (segment, shown) => {
    expect(refusal(() => path`messages/${segment as string}`)).toBe(
      `A path id must be a non-empty string other than . or .., got ${shown}`,
    );
  });

  it('refuses messages.get(".") before any request, as it refuses ".."', async () => {
    const parley = server.client();
    for (const id of ['.', '..']) {
      const error = await parley.messages.get(id).catch((caught: unknown) => caught);
      expect(Object.getPrototypeOf(error)).toBe(TypeError.prototype);
    }
    expect(server.requests).toHaveLength(0);
  });
});
