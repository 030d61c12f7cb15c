// After tsup (the package's `build` script): `parley mcp` serves the guides and both OpenAPI
// descriptions as resources, offline. An installed CLI has no repository beside it, so the pages it
// serves ship inside the package: docs/*.md and docs/*.yaml copied into dist/docs/ (images are not
// resources and stay out).
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('..', import.meta.url));
const source = join(cli, '../../docs');
const target = join(cli, 'dist/docs');
rmSync(target, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
for (const name of readdirSync(source)) {
  if (name.endsWith('.md') || name.endsWith('.yaml')) copyFileSync(join(source, name), join(target, name));
}
