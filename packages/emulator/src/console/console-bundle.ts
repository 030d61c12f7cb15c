import { join } from 'node:path';

/** The console's browser code and stylesheet, bundled and minified. */
export interface ConsoleBundle {
  script: string;
  style: string;
}

/**
 * Bundles the console app (`app/main.tsx` and `app/console.css` in `appDir`) for the browser with
 * esbuild: one minified script (Preact included) and one stylesheet, nothing loaded at run time.
 * The package build writes the result to `dist/console/`; running from source (tests), the
 * emulator calls this once on the first page view.
 */
export async function buildConsoleBundle(appDir: string): Promise<ConsoleBundle> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: { console: join(appDir, 'main.tsx'), 'console-style': join(appDir, 'console.css') },
    bundle: true,
    write: false,
    outdir: 'console',
    format: 'iife',
    platform: 'browser',
    target: ['chrome120', 'firefox120', 'safari17'],
    minify: true,
    legalComments: 'none',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    // Besides types, the app imports only dependency-free domain modules, by relative path: no tsconfig paths needed.
    tsconfigRaw: {},
    logLevel: 'silent',
  });
  const output = (extension: string) => {
    const file = result.outputFiles.find((candidate) => candidate.path.endsWith(extension));
    if (!file) throw new Error(`the console bundle has no ${extension} output`);
    return file.text;
  };
  const bundle = { script: output('.js'), style: output('.css') };
  // Both are inlined in the page: a closing tag inside them would end their element early.
  if (/<\/script/i.test(bundle.script) || /<\/style/i.test(bundle.style)) {
    throw new Error('the console bundle contains a closing tag and cannot be inlined');
  }
  return bundle;
}
