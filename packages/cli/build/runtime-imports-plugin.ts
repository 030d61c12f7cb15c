import { basename } from 'node:path';
import type { Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];
type TsupPlugin = NonNullable<Options['plugins']>[number];

/**
 * With code splitting, esbuild puts its helpers (`__require`, `__toESM`…) in a chunk of their own,
 * and every chunk imports that chunk for its side effects, though it has none: code that calls a
 * helper imports it by name. Each such bare import is one more file for Node to find, read and
 * compile at start (`parley --version` read two files instead of one). The esbuild half learns
 * which chunks are helpers only (no source file went into them) from the metafile; the tsup half
 * removes the bare imports of those chunks. Imports of a helper by name stay.
 */
export function runtimeImportsPlugins(): { esbuild: EsbuildPlugin; tsup: TsupPlugin } {
  const helperChunks = new Set<string>();
  return {
    esbuild: {
      name: 'find-helper-chunks',
      setup(build) {
        build.onEnd((result) => {
          helperChunks.clear();
          for (const [path, output] of Object.entries(result.metafile?.outputs ?? {})) {
            if (!output.entryPoint && Object.keys(output.inputs).length === 0)
              helperChunks.add(basename(path));
          }
        });
      },
    },
    tsup: {
      name: 'drop-bare-helper-imports',
      renderChunk(code) {
        const kept = code.replace(/^import "\.\/([\w.-]+\.js)";\n/gm, (statement, file: string) =>
          helperChunks.has(file) ? '' : statement,
        );
        return kept === code ? undefined : { code: kept };
      },
    },
  };
}
