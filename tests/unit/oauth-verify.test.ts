import { base64url, exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { issueAccessToken } from "../../src/oauth/access-token.ts";
import { clientGrantId } from "../../src/oauth/grants.ts";
import { generateKeySet, importSigningKeys, type SigningKeys } from "../../src/tokens/keys.ts";
import { rotateKeySet } from "../../src/oauth/rotation.ts";
import { bearerChallenge, createAccessTokenVerifier, type RejectedAccessToken } from "../../src/tokens/verify.ts";

/** The one verifier REST, MCP and A2A share, attacked in-process (RFC 8725 §3, RFC 9068 §4). */
const base = "https://studio.example";
const now = Date.UTC(2026, 10, 5, 12);
let keys: SigningKeys;
let privateJwk: JWK;

beforeAll(async () => {
  const set = await generateKeySet();
  privateJwk = set.keys[0]!;
  keys = await importSigningKeys(JSON.stringify(set));
});

const grantId = clientGrantId("fdc_client");
const verifier = () => createAccessTokenVerifier({ baseUrl: base, jwks: keys.publicJwks, now: () => now });
const issue = (audience = `${base}/mcp`, scope = "svc:read svc:brief") =>
  issueAccessToken(keys, base, { clientId: "fdc_client", grantId, scope, audience }, now).then((t) => t.access_token);

/** A token signed with the real key but with chosen header and claims. */
async function forge(header: Record<string, unknown>, claims: Record<string, unknown>) {
  const iat = Math.floor(now / 1000);
  return new SignJWT({ client_id: "fdc_client", grant_id: grantId, scope: "svc:read svc:brief", ...claims })
    .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: keys.signing.kid, ...header } as never)
    .setIssuer((claims.iss as string) ?? base)
    .setSubject("fdc_client")
    .setAudience((claims.aud as string) ?? `${base}/mcp`)
    .setIssuedAt((claims.iat as number) ?? iat)
    .setExpirationTime((claims.exp as number) ?? iat + 3600)
    .setJti("j1")
    .sign(keys.signing.key);
}

const segments = (token: string) => token.split(".") as [string, string, string];
const json = (segment: string) => JSON.parse(new TextDecoder().decode(base64url.decode(segment))) as Record<string, unknown>;
const encode = (value: object) => base64url.encode(JSON.stringify(value));

async function expectInvalid(token: string) {
  const result = (await verifier().verifyToken(token, ["svc:brief"])) as RejectedAccessToken;
  expect(result.ok).toBe(false);
  expect(result.error).toBe("invalid_token");
  expect(result.status).toBe(401);
  return result;
}

/** A well-formed access token for this issuer, signed by a key that is not ours. */
const signedBy = (privateKey: CryptoKey, header: Record<string, unknown>) => {
  const iat = Math.floor(now / 1000);
  return new SignJWT({ client_id: "fdc_client" })
    .setProtectedHeader({ alg: "ES256", typ: "at+jwt", ...header })
    .setIssuer(base)
    .setSubject("fdc_client")
    .setAudience(base)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 3600)
    .setJti("j")
    .sign(privateKey);
};
describe("the access token verifier", () => {
  it("accepts our token for the origin, /mcp and /a2a/v1 alike, with its client, grant and scopes", async () => {
    for (const audience of [base, `${base}/mcp`, `${base}/a2a/v1`]) {
      expect(await verifier().verifyToken(await issue(audience), ["svc:brief"])).toEqual({
        ok: true,
        clientId: "fdc_client",
        grantId,
        scopes: ["svc:read", "svc:brief"],
        audience,
      });
    }
  });

  it("reads the Bearer header, and says nothing about errors when no credentials were sent (RFC 6750 §3.1)", async () => {
    const token = await issue();
    const ok = await verifier().verifyRequest(new Request(base, { headers: { authorization: `Bearer ${token}` } }));
    expect(ok.ok).toBe(true);
    const missing = (await verifier().verifyRequest(new Request(base), ["svc:brief"])) as RejectedAccessToken;
    expect(missing).toMatchObject({ ok: false, error: "invalid_token", status: 401, missing: true });
    expect(bearerChallenge(`${base}/.well-known/oauth-protected-resource/mcp`, missing)).toBe(
      `Bearer scope="svc:brief", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
    const basic = await verifier().verifyRequest(new Request(base, { headers: { authorization: "Basic abc" } }));
    expect(basic).toMatchObject({ ok: false, error: "invalid_request", status: 400 });
  });

  it("answers a token without svc:brief with insufficient_scope (403) and a challenge naming the scope", async () => {
    const result = (await verifier().verifyToken(await issue(base, "svc:read"), ["svc:brief"])) as RejectedAccessToken;
    expect(result).toMatchObject({ ok: false, error: "insufficient_scope", status: 403 });
    expect(bearerChallenge(`${base}/.well-known/oauth-protected-resource`, result)).toBe(
      `Bearer error="insufficient_scope", error_description="The access token lacks the scope svc:brief.", scope="svc:brief", ` +
        `resource_metadata="${base}/.well-known/oauth-protected-resource"`,
    );
  });

  it("refuses alg none", async () => {
    const [header, payload] = segments(await issue());
    await expectInvalid(`${encode({ ...json(header), alg: "none" })}.${payload}.`);
  });

  it("refuses HS256 signed with the published public key (algorithm confusion)", async () => {
    const publicJwk = keys.publicJwks.keys[0]!;
    const secret = new TextEncoder().encode(JSON.stringify(publicJwk));
    const iat = Math.floor(now / 1000);
    const token = await new SignJWT({ client_id: "fdc_client", scope: "svc:brief" })
      .setProtectedHeader({ alg: "HS256", typ: "at+jwt", kid: keys.signing.kid })
      .setIssuer(base)
      .setSubject("fdc_client")
      .setAudience(base)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 3600)
      .setJti("j")
      .sign(secret);
    expect((await expectInvalid(token)).description).toMatch(/ES256/);
  });

  it("refuses an unknown kid, and a key that is not ours under our kid", async () => {
    await expectInvalid(await forge({ kid: "../../etc/passwd" }, {}));
    const { privateKey } = await generateKeyPair("ES256");
    await expectInvalid(await signedBy(privateKey, { kid: keys.signing.kid }));
  });

  it("ignores keys a token brings along (jwk, jku)", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    await expectInvalid(await signedBy(privateKey, { jwk: await exportJWK(publicKey), jku: "https://evil.example/jwks" }));
  });

  it("refuses an expired token, one issued in the future, and one without exp", async () => {
    const iat = Math.floor(now / 1000);
    expect((await expectInvalid(await forge({}, { iat: iat - 7200, exp: iat - 3600 }))).description).toMatch(/expired/);
    await expectInvalid(await forge({}, { iat: iat + 600, exp: iat + 4200 }));
    const [header, payload, signature] = segments(await issue());
    const { exp: _exp, ...withoutExp } = json(payload);
    await expectInvalid(`${header}.${encode(withoutExp)}.${signature}`);
  });

  it("refuses a token issued before grants existed (no grant_id) and a malformed grant_id, whatever else it says", async () => {
    expect(await verifier().verifyToken(await forge({}, {}), ["svc:brief"])).toMatchObject({ ok: true, grantId });
    expect((await expectInvalid(await forge({}, { grant_id: undefined }))).description).toBe(
      "The access token predates grant identifiers; get a new one.",
    );
    for (const grant_id of ["", "fdc_client", "ga_short", 42, ["ga_0123456789abcdefghijkl"], { id: 1 }, `ga_${"a".repeat(23)}`])
      expect((await expectInvalid(await forge({}, { grant_id }))).description, JSON.stringify(grant_id)).toMatch(/malformed/);
  });

  it("refuses a wrong issuer and a wrong audience", async () => {
    await expectInvalid(await forge({}, { iss: "https://evil.example" }));
    await expectInvalid(await forge({}, { aud: "https://evil.example/mcp" }));
    await expectInvalid(await forge({}, { aud: `${base}/api/v2` }));
  });

  it("refuses a tampered payload, a tampered signature and a DER-encoded signature", async () => {
    const [header, payload, signature] = segments(await issue(base, "svc:read"));
    await expectInvalid(`${header}.${encode({ ...json(payload), scope: "svc:read svc:brief" })}.${signature}`);
    const bytes = base64url.decode(signature);
    bytes[10] = bytes[10]! ^ 1;
    await expectInvalid(`${header}.${payload}.${base64url.encode(bytes)}`);
    const raw = base64url.decode(signature);
    const der = Uint8Array.from([0x30, 68, 0x02, 32, ...raw.slice(0, 32), 0x02, 32, ...raw.slice(32)]);
    await expectInvalid(`${header}.${payload}.${base64url.encode(der)}`);
  });

  it("refuses a missing or different typ (an ID token, a consent form token)", async () => {
    await expectInvalid(await forge({ typ: undefined }, {}));
    await expectInvalid(await forge({ typ: "JWT" }, {}));
    await expectInvalid(await forge({ typ: "oauth-authz-req+jwt" }, {}));
  });

  it("refuses garbage and oversized tokens without throwing", async () => {
    await expectInvalid("not.a.token");
    await expectInvalid("x".repeat(100_000));
    await expectInvalid(`${encode({ alg: "ES256" })}.%%%.`);
  });
});

describe("key rotation", () => {
  it("keeps verifying the old key's tokens while it is published, and stops when it is retired", async () => {
    const old = await importSigningKeys(JSON.stringify({ keys: [privateJwk] }));
    const oldToken = (await issueAccessToken(old, base, { clientId: "fdc_client", grantId, scope: "svc:read", audience: base }, now))
      .access_token;
    const next = (await generateKeySet()).keys[0]!;
    const verifyWith = async (set: JWK[], token: string) =>
      (
        await createAccessTokenVerifier({
          baseUrl: base,
          jwks: (await importSigningKeys(JSON.stringify({ keys: set }))).publicJwks,
          now: () => now,
        }).verifyToken(token)
      ).ok;

    const published = rotateKeySet([privateJwk], "publish", next);
    expect((await importSigningKeys(JSON.stringify({ keys: published }))).signing.kid).toBe(privateJwk.kid);
    expect(await verifyWith(published, oldToken)).toBe(true);

    const switched = rotateKeySet(published, "switch");
    const nowSigning = await importSigningKeys(JSON.stringify({ keys: switched }));
    expect(nowSigning.signing.kid).toBe(next.kid);
    const newToken = (await issueAccessToken(nowSigning, base, { clientId: "fdc_client", grantId, scope: "svc:read", audience: base }, now))
      .access_token;
    expect(await verifyWith(switched, oldToken)).toBe(true);
    expect(await verifyWith(switched, newToken)).toBe(true);

    const retired = rotateKeySet(switched, "retire");
    expect(await verifyWith(retired, newToken)).toBe(true);
    expect(await verifyWith(retired, oldToken)).toBe(false);
    expect(() => rotateKeySet(retired, "retire")).toThrow(/switch first/);
  });

  it("never publishes a private part", async () => {
    const published = JSON.stringify(keys.publicJwks);
    expect(published).not.toContain('"d"');
    expect(keys.publicJwks.keys[0]).toEqual({ ...keys.publicJwks.keys[0], kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
  });

  it("refuses a broken key set with a configuration error that shows no key material", async () => {
    for (const bad of [undefined, "nope", "{}", '{"keys":[]}', JSON.stringify({ keys: [{ ...privateJwk, alg: "RS256" }] })]) {
      await expect(importSigningKeys(bad)).rejects.toMatchObject({ name: "ConfigurationError" });
    }
    await expect(importSigningKeys(JSON.stringify({ keys: [{ ...privateJwk, d: "AAAA" }] }))).rejects.toThrow(/cannot be imported/);
    await expect(importSigningKeys(JSON.stringify({ keys: [privateJwk, privateJwk] }))).rejects.toThrow(/used twice/);
  });
});
