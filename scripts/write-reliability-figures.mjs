// Renders the rows the hardening suite recorded (packages/e2e/hardening/_figures.ts) into the
// table of docs/reliability.md, between its figure markers. Run by `pnpm test:hardening` after a
// green run, so the document always carries the figures of the last passing run.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const figuresFile = new URL('../node_modules/.cache/hardening-figures.ndjson', import.meta.url);
const documentFile = new URL('../docs/reliability.md', import.meta.url);
const START = '<!-- figures:start -->';
const END = '<!-- figures:end -->';

if (!existsSync(figuresFile)) {
  console.error('no hardening figures recorded; run the hardening suite first');
  process.exit(1);
}
const rows = new Map();
for (const line of readFileSync(figuresFile, 'utf8').split('\n')) {
  if (line.trim() === '') continue;
  const row = JSON.parse(line);
  rows.set(row.test, row);
}
const cell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');
const table = [
  '| test | load | what it proved | figures of the last run |',
  '| --- | --- | --- | --- |',
  ...[...rows.values()]
    .sort((a, b) => a.test.localeCompare(b.test))
    .map((row) => `| ${cell(row.test)} | ${cell(row.load)} | ${cell(row.proved)} | ${cell(row.figures)} |`),
].join('\n');
const runAt = [...rows.values()]
  .map((row) => row.at)
  .sort()
  .at(-1);
const document = readFileSync(documentFile, 'utf8');
const start = document.indexOf(START);
const end = document.indexOf(END);
if (start === -1 || end === -1) {
  console.error(`docs/reliability.md lacks the ${START} … ${END} markers`);
  process.exit(1);
}
const updated = `${document.slice(0, start + START.length)}\n\nLast run: ${runAt} (UTC), ${process.platform} ${process.arch}, Node ${process.versions.node}.\n\n${table}\n\n${document.slice(end)}`;
writeFileSync(documentFile, updated);
rmSync(figuresFile);
console.log(`docs/reliability.md: ${rows.size} rows`);
