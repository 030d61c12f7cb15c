import type { z } from 'zod';
import type { McpTarget } from './mcp-target';

/** Which part of the toolbox a tool belongs to (docs/mcp.md lists them so). */
export type ToolGroup = 'api' | 'emulator' | 'receivers';

/**
 * One tool of `parley mcp`: its schemas (the input is checked before any call, the output is
 * what `structuredContent` holds) and its work. docs/mcp.md's tool list is generated from these.
 */
export interface ToolSpec<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  group: ToolGroup;
  input: Input;
  output: z.ZodObject;
  /** Reads only: clients may call it without asking. */
  readOnly?: true;
  /** Its answer holds a secret shown nowhere else (the new endpoint's): it is not masked. */
  createsSecret?: true;
  run(args: z.output<Input>, target: McpTarget): Promise<Record<string, unknown>>;
}

/** Declares a tool with its argument types taken from its input schema. */
export function defineTool<Input extends z.ZodObject>(spec: ToolSpec<Input>): ToolSpec {
  return spec as unknown as ToolSpec;
}
