/**
 * The parts of jose that keys and token verification use, imported on first use (keys.ts and verify.ts here,
 * src/oauth/client-assertion.ts): a dynamic import of "jose" itself would bring every export of the library into a door's bundle,
 * this only these.
 */
export { createLocalJWKSet, decodeJwt, decodeProtectedHeader, errors, exportJWK, generateKeyPair, importJWK, jwtVerify } from "jose";
