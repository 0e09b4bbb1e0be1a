import { parseKeySet } from "./keys.ts";

/**
 * One 256-bit secret per OAuth signing key (OAUTH_SIGNING_KEYS, which every deployment has), derived with HKDF-SHA256
 * from the key's private part under `label`: every instance of a deploy derives the same secrets, and each label keys
 * one use only, so no secret derived for one use can be used for another. In configuration order: the first key's
 * secret makes new values and every key's checks them, so a rotation (src/oauth/rotation.ts) keeps what the first key
 * made while that key is in the set, and a key dropped from the set takes what it made with it.
 */
export async function derivedSecrets(signingKeys: string | undefined, label: string): Promise<Uint8Array[]> {
  const info = new TextEncoder().encode(label);
  return Promise.all(
    parseKeySet(signingKeys).map(async ({ d }) => {
      const secret = await crypto.subtle.importKey("raw", new TextEncoder().encode(d), "HKDF", false, ["deriveBits"]);
      const bits = await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info }, secret, 256);
      return new Uint8Array(bits);
    }),
  );
}
