/**
 * Builds a request path, encoding every interpolated segment so an id can never change the
 * path (`path\`connections/${id}/templates\``): `/`, `?` and `#` are escaped, dot segments refused.
 */
export function path(strings: TemplateStringsArray, ...segments: readonly string[]): string {
  // A template has one more string than values, so every index read here exists.
  let result = strings[0]!;
  for (let index = 0; index < segments.length; index++) {
    result += encodeSegment(segments[index]!) + strings[index + 1]!;
  }
  return result;
}

function encodeSegment(segment: string): string {
  // URL parsing resolves `.` and `..` segments, even percent-encoded ones, escaping the resource.
  if (typeof segment !== 'string' || segment === '' || segment === '.' || segment === '..') {
    throw new TypeError(
      `A path id must be a non-empty string other than . or .., got ${JSON.stringify(segment) ?? typeof segment}`,
    );
  }
  return encodeURIComponent(segment);
}
