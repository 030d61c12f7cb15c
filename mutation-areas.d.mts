/** Types of mutation-areas.mjs for the TypeScript files that import it (the root tsconfig has no allowJs). */
export declare const MUTATION_AREAS: Readonly<
  Record<'sdk' | 'emulator', { readonly mutate: readonly string[]; readonly tests: readonly string[] }>
>;
