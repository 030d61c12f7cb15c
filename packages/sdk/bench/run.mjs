// `pnpm bench` for @parley/sdk: every figure is a ratio to a baseline measured in this run.
// Needs the built dist (root `pnpm bench` builds first). Local only; stops by itself.
import { benchBundleSize } from './bundle-size.mjs';
import { benchImportTime } from './import-time.mjs';
import { benchVerify } from './verify-webhook.mjs';

console.log(
  '\nverifyWebhook throughput (sequential calls; floor = createHmac+KeyObject+hex+timingSafeEqual+JSON.parse)',
);
console.log('targets: >= 0.75 of floor at 1 KB, >= 0.90 at 64 KB, ahead of every library');
console.table(await benchVerify());
console.log('\nbrowser bundle (esbuild minify, gzip) — targets: whole SDK < 12 KB, webhooks entry < 2 KB');
console.table(await benchBundleSize());
console.log('\nimport time, whole process — target: webhooks entry < 1.3x');
console.table(benchImportTime());
