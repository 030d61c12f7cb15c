// @ts-check
// `pnpm test:mutation:emulator`: the emulator's domain rules and its webhook URL policy.
import { mutationConfig } from './stryker.config.mjs';

export default mutationConfig('emulator');
