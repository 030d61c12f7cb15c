import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

const nodeHmac = fileURLToPath(new URL('./src/webhooks/_hmac-node.ts', import.meta.url));

const shared: Options = {
  entry: { index: 'src/index.ts', webhooks: 'src/webhooks/index.ts' },
  format: ['esm', 'cjs'],
  target: 'es2023',
  platform: 'neutral',
  treeshake: true,
  sourcemap: false,
  minify: false,
  tsconfig: '../../tsconfig.base.json',
  removeNodeProtocol: false,
};

// Two builds from one source. The default one (browsers, Deno, Bun, edge workers) uses Web
// Crypto; the `node` export condition gets `dist/node/*`, where `./_hmac` resolves to the
// node:crypto implementation with cached KeyObjects (DESIGN §5).
export default defineConfig([
  { ...shared, outDir: 'dist', clean: true, dts: true },
  {
    ...shared,
    outDir: 'dist/node',
    platform: 'node',
    target: 'node22',
    dts: false,
    esbuildPlugins: [
      {
        name: 'parley-node-hmac',
        setup(build) {
          build.onResolve({ filter: /^\.\/_hmac$/ }, () => ({ path: nodeHmac }));
        },
      },
    ],
  },
]);
