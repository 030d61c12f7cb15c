// @ts-check
// One area of mutation-areas.mjs, named by MUTATION_AREA (docs/testing.md):
// `MUTATION_AREA=emulator-idempotency npx stryker run stryker.area.config.mjs --concurrency 1`.
// Not PARLEY_MUTATION_AREA: importing stryker.config.mjs sets that one to `all` (its default export).
import { mutationConfig } from './stryker.config.mjs';

const area = process.env.MUTATION_AREA;
if (!area) throw new Error('Name the area: MUTATION_AREA=<area> npx stryker run stryker.area.config.mjs');

export default mutationConfig(/** @type {any} */ (area));
