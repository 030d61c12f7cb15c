// @ts-check
// `pnpm test:mutation:sdk`: the SDK's webhooks, core and errors (goal: a score of 90 % or more).
import { mutationConfig } from './stryker.config.mjs';

export default mutationConfig('sdk');
