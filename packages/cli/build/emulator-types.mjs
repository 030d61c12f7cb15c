// After tsup (the package's `build` script): the CLI's library types name the emulator commands'
// answers (`HealthView`, `FaultView`, …) from `@parley/emulator/control`, which tsup's declaration
// bundler keeps as an import because the emulator is a peer. The emulator is an optional peer, so a
// project without it would have no such module: copy the emulator's own built declarations of that
// entry (its file and the chunks it imports, which import only `@parley/sdk`) into dist/emulator/,
// and point dist/index.d.ts there.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('..', import.meta.url));
const emulatorDist = join(cli, '../emulator/dist');
const SPECIFIER = "from '@parley/emulator/control';";

const entry = join(emulatorDist, 'control.d.ts');
if (!existsSync(entry)) {
  console.error(`${entry} is missing: build @parley/emulator first (pnpm --filter @parley/emulator build)`);
  process.exit(1);
}
// The entry and every declaration chunk it reaches by a relative import.
const copied = new Set();
const pending = ['control.d.ts'];
while (pending.length > 0) {
  const file = pending.pop();
  if (copied.has(file)) continue;
  copied.add(file);
  const text = readFileSync(join(emulatorDist, file), 'utf8');
  for (const [, path] of text.matchAll(/(?:from|import) '\.\/([\w.-]+)\.js'/g)) pending.push(`${path}.d.ts`);
}
mkdirSync(join(cli, 'dist/emulator'), { recursive: true });
for (const file of copied) {
  const text = readFileSync(join(emulatorDist, file), 'utf8');
  for (const [, bare] of text.matchAll(/(?:from|import) '([^.'][^']*)'/g)) {
    if (bare !== '@parley/sdk') throw new Error(`${file} imports ${bare}: only @parley/sdk is expected`);
  }
  copyFileSync(join(emulatorDist, file), join(cli, 'dist/emulator', file));
}
const index = join(cli, 'dist/index.d.ts');
const types = readFileSync(index, 'utf8');
if (!types.includes(SPECIFIER)) throw new Error(`dist/index.d.ts has no import ${SPECIFIER}`);
writeFileSync(index, types.replaceAll(SPECIFIER, "from './emulator/control.js';"));
