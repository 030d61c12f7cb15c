/** A refusal of the control API, with the code of its error body. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Calls the control API on the page's own origin. State changes go as JSON (the API takes no
 * other type, so no foreign form can make them); a refusal throws {@link ApiError} with the API's
 * message and code: "message (code)".
 */
export async function api<Answer>(method: Method, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const init: RequestInit = { method, headers };
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body ?? {});
  }
  const response = await fetch(path, init);
  if (response.status === 204) return undefined as Answer;
  const text = await response.text();
  const data = parse(text);
  if (!response.ok) {
    const error = (data as { error?: { code: string; message: string; details?: Record<string, unknown> } })
      ?.error;
    if (error) {
      throw new ApiError(
        `${error.message} (${error.code})`,
        response.status,
        error.code,
        error.details ?? {},
      );
    }
    throw new ApiError(`HTTP ${response.status} from ${path}`, response.status, 'http_error', {});
  }
  return data as Answer;
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** A query string of the given parameters, empty ones left out. */
export function query(parameters: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== null && value !== undefined && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A path with every segment encoded: ids never change the path they are put in. */
export function path(strings: TemplateStringsArray, ...segments: string[]): string {
  return strings.reduce((built, text, index) => {
    const segment = index < segments.length ? encodeURIComponent(segments[index]!) : '';
    return built + text + segment;
  }, '');
}
