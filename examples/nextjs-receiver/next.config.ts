import type { NextConfig } from 'next';

/** Next's output goes to dist/, which git, tsc and biome already leave alone. */
const config: NextConfig = { distDir: 'dist' };

export default config;
