/**
 * Builds a request path, encoding every interpolated segment so an id can never change the
 * path (`path\`connections/${id}/templates\``): `/`, `?`, `#` and dot segments are escaped.
 */
export function path(strings: TemplateStringsArray, ...segments: readonly string[]): string {
  let result = strings[0] ?? '';
  for (let index = 0; index < segments.length; index++) {
    result += encodeSegment(segments[index]!) + (strings[index + 1] ?? '');
  }
  return result;
}

function encodeSegment(segment: string): string {
  if (typeof segment !== 'string' || segment === '') {
    throw new TypeError(
      `A path id must be a non-empty string, got ${JSON.stringify(segment) ?? typeof segment}`,
    );
  }
  // URL parsing would resolve a bare `.` or `..` segment, escaping the intended resource.
  if (segment === '.' || segment === '..') return segment.replaceAll('.', '%2E');
  return encodeURIComponent(segment);
}
