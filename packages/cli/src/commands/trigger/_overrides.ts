import { type SandboxEventType, sandboxEventOverrideProblem } from '@parley/sdk';
import { usageError } from '../../exit-error';

/**
 * The `--set PATH=VALUE` flags of `parley trigger` as the `overrides` of `POST /v1/sandbox/events`,
 * checked with the SDK's rules before any call (exit 2 naming the path). A value is JSON when it
 * parses as JSON (`42`, `null`, `"42"`), else the text as typed; a later `--set` of a path wins.
 */
export function parseOverrides(
  type: SandboxEventType,
  flags: readonly string[],
): Record<string, unknown> | undefined {
  if (flags.length === 0) return undefined;
  const overrides: Record<string, unknown> = {};
  for (const flag of flags) {
    const equals = flag.indexOf('=');
    if (equals <= 0) {
      throw usageError(
        `--set takes PATH=VALUE, e.g. --set data.message.text="Where is my order?"; got "${flag}"`,
      );
    }
    const path = flag.slice(0, equals);
    overrides[path] = parseValue(flag.slice(equals + 1));
  }
  const problem = sandboxEventOverrideProblem(type, overrides);
  if (!problem) return overrides;
  const value = overrides[problem.field];
  // `--set data.message.text=42` parses as a number: say how to keep it text.
  const quoting =
    problem.reason === 'invalid_type' &&
    value !== null &&
    typeof value !== 'object' &&
    typeof value !== 'string'
      ? ` (to send it as text, quote it for JSON: --set '${problem.field}="${String(value)}"')`
      : '';
  throw usageError(`--set ${problem.message.replace(/\.$/, '')}${quoting}`);
}

function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
