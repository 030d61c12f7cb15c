// The default (Web Crypto) HMAC. The `node` build resolves this module to `_hmac-node.ts`
// instead (see tsup.config.ts), so no Node built-in reaches the default build.
export { decodeSignature, type Signature, signatureMatches, signHex } from './_hmac-web';
