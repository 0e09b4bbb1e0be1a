import type { JSONWebKeySet, JWK } from "jose";
import { ConfigurationError } from "../config/env.ts";
import type { Configuration, SettingName } from "../config/settings.ts";

/**
 * The token signing keys, from OAUTH_SIGNING_KEYS: a JWK Set of private EC P-256 keys, each with a unique `kid`
 * and `alg: "ES256"`. The first key signs; every key's public part is published at /.well-known/jwks.json, which
 * is how a key is announced before it signs and kept after it stops signing (see `npm run keys -- rotate`).
 */
export interface SigningKeys {
  signing: { kid: string; key: CryptoKey };
  /** The published set: public parts only, in configuration order. */
  publicJwks: JSONWebKeySet;
}

export const signingKeysVariable = "OAUTH_SIGNING_KEYS" satisfies SettingName;

const fail = (reason: string) =>
  new ConfigurationError(
    `${signingKeysVariable} is not a valid signing key set: ${reason}. Generate one with \`npm run -s keys -- generate\`.`,
  );

/** Only these members reach the published set; `d` (the private part) never does. */
export const publicJwk = ({ kty, crv, x, y, kid, alg }: JWK): JWK => ({ kty, crv, x, y, kid, alg, use: "sig" });

/** Checks the shape of a private key set; throws a ConfigurationError naming the problem (never the key material). */
export function parseKeySet(text: string | undefined): JWK[] {
  if (!text) throw fail("it is not set");
  let set: unknown;
  try {
    set = JSON.parse(text);
  } catch {
    throw fail("it is not JSON");
  }
  const keys = (set as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) throw fail('it needs a non-empty "keys" array');
  const kids = new Set<string>();
  keys.forEach((key: JWK, index) => {
    const where = `key ${index + 1}`;
    if (typeof key !== "object" || key === null) throw fail(`${where} is not an object`);
    if (key.kty !== "EC" || key.crv !== "P-256") throw fail(`${where} is not an EC P-256 key`);
    if (key.alg !== "ES256") throw fail(`${where} must say "alg": "ES256"`);
    if (typeof key.kid !== "string" || !/^[\w.-]{1,64}$/.test(key.kid))
      throw fail(`${where} needs a "kid" of letters, digits, "-", "_", "."`);
    if (kids.has(key.kid)) throw fail(`the kid "${key.kid}" is used twice`);
    if (typeof key.d !== "string" || typeof key.x !== "string" || typeof key.y !== "string") throw fail(`${where} is not a private key`);
    kids.add(key.kid);
  });
  return keys as JWK[];
}

export async function importSigningKeys(text: string | undefined): Promise<SigningKeys> {
  const keys = parseKeySet(text);
  const { importJWK } = await import("./jose.ts");
  const imported = await Promise.all(
    keys.map((jwk, index) =>
      importJWK(jwk, "ES256").catch(() => {
        throw fail(`key ${index + 1} (${jwk.kid}) cannot be imported`);
      }),
    ),
  );
  // Every key is checked by importing it, so a broken retired-next key is found before it is switched to.
  return { signing: { kid: keys[0]!.kid!, key: imported[0] as CryptoKey }, publicJwks: { keys: keys.map(publicJwk) } };
}

export const signingKeysFromEnv = (settings: Configuration) => importSigningKeys(settings.get(signingKeysVariable));

/**
 * The published set from OAUTH_SIGNING_KEYS, its shape checked but nothing imported: all a token verifier needs, so a
 * door that only verifies tokens loads jose with its first token (src/tokens/verify.ts), not when it is wired.
 */
export const publicJwksFromEnv = (settings: Configuration): JSONWebKeySet => ({
  keys: parseKeySet(settings.get(signingKeysVariable)).map(publicJwk),
});

/** A new private key with a kid that says when it was made, e.g. `2026-11-05-a1b2c3`. */
export async function generateSigningKey(now = new Date()): Promise<JWK> {
  const { exportJWK, generateKeyPair } = await import("./jose.ts");
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  const suffix = Array.from(crypto.getRandomValues(new Uint8Array(3)), (b) => b.toString(16).padStart(2, "0")).join("");
  return { ...jwk, kid: `${now.toISOString().slice(0, 10)}-${suffix}`, alg: "ES256" };
}

export const generateKeySet = async (now?: Date) => ({ keys: [await generateSigningKey(now)] });
