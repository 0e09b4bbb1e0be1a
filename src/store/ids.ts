/**
 * The identifiers and digests the stores key records by: `<prefix>_` and 20 random Crockford base32 characters (100
 * bits: unguessable, easy to read out), the pattern that recognises one, and a SHA-256 in hex.
 */
const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";

export const randomId = (prefix: string) =>
  `${prefix}_${Array.from(crypto.getRandomValues(new Uint8Array(20)), (b) => alphabet[b & 31]).join("")}`;

/** What `randomId(prefix)` writes, and nothing else. */
export const idPattern = (prefix: string) => new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{20}$`);

export const sha256Hex = async (text: string) =>
  Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
