// HMAC-SHA256 in plain JavaScript for runtimes without node:crypto (workerd,
// browsers), where Web Crypto offers only an async HMAC. @noble/hashes is
// audited and dependency-free; scripts/compile.mjs bundles it into this module,
// so the package gains no runtime dependency.
export { hmac } from '@noble/hashes/hmac.js';
export { sha256 } from '@noble/hashes/sha2.js';
