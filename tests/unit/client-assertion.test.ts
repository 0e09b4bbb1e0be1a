import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authenticateClientAssertion,
  clientAssertionType,
  ClientAssertionRefused,
  type ClientAssertionFailure,
  type ClientAssertionParams,
} from "../../src/oauth/client-assertion.ts";
import { clientKeySet } from "../../src/oauth/client-keys.ts";
import type { ClientRecord } from "../../src/oauth/clients.ts";
import { FetchRefused } from "../../src/oauth/ssrf.ts";
import { inProcessOAuthServer } from "../support/oauth-server.ts";

/** private_key_jwt assertions (RFC 7523) checked against a metadata document client's keys, over the local store. */
let server: Awaited<ReturnType<typeof inProcessOAuthServer>>;
const issuer = "https://studio.example";
const tokenEndpoint = `${issuer}/oauth/token`;
const clientId = "https://agent.example/client.json";
const jwksUri = "https://agent.example/jwks.json";

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
let es256: KeyPair, rs256: KeyPair, stranger: KeyPair, rotated: KeyPair;
const publicJwk = async (pair: KeyPair, kid: string, alg: string): Promise<JWK> => ({ ...(await exportJWK(pair.publicKey)), kid, alg });

beforeAll(async () => {
  server = await inProcessOAuthServer();
  [es256, rs256, stranger, rotated] = await Promise.all([
    generateKeyPair("ES256", { extractable: true }),
    generateKeyPair("RS256", { extractable: true, modulusLength: 2048 }),
    generateKeyPair("ES256", { extractable: true }),
    generateKeyPair("ES256", { extractable: true }),
  ]);
});
afterAll(() => server?.close());

const client = (extra: Partial<ClientRecord> = {}): ClientRecord => ({
  client_id: clientId,
  client_id_issued_at: 0,
  redirect_uris: [],
  grant_types: ["client_credentials"],
  response_types: [],
  token_endpoint_auth_method: "private_key_jwt",
  metadata_document: true,
  ...extra,
});

/** An assertion as a client signs it; every claim and the header can be changed. */
async function sign(
  key: CryptoKey,
  { alg = "ES256", kid = "es", claims = {} }: { alg?: string; kid?: string | undefined; claims?: JWTPayload } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: clientId, sub: clientId, aud: tokenEndpoint, iat: now, exp: now + 60, jti: randomUUID(), ...claims })
    .setProtectedHeader({ alg, ...(kid ? { kid } : {}) })
    .sign(key);
}

/** Fetches of jwks_uri, answered from `served` (the set a client publishes right now). */
let served: JWK[] = [];
let fetches = 0;
const fetchJson = async () => {
  fetches++;
  if (served.length === 0) throw new FetchRefused("the server answered 404");
  return { keys: served };
};

function authenticate(params: ClientAssertionParams, record: ClientRecord | undefined = client()) {
  return authenticateClientAssertion(
    { client_assertion_type: clientAssertionType, ...params },
    {
      issuer,
      tokenEndpoint,
      redis: server.options.redis,
      now: Date.now,
      findClient: async (id) => (id === record?.client_id ? record : undefined),
      keySet: (c) => clientKeySet(c, { redis: server.options.redis, count: async () => undefined, allowLoopback: false, fetchJson }),
    },
  );
}

async function refusal(params: ClientAssertionParams, record?: ClientRecord): Promise<ClientAssertionFailure> {
  const error = await authenticate(params, record).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ClientAssertionRefused);
  return (error as ClientAssertionRefused).code;
}

describe("client assertions with inline keys", () => {
  let inline: ClientRecord;
  beforeAll(async () => {
    inline = client({ jwks: { keys: [await publicJwk(es256, "es", "ES256"), await publicJwk(rs256, "rs", "RS256")] } });
  });

  it("accepts ES256 for the token endpoint and RS256 for the issuer, with or without client_id", async () => {
    expect(await authenticate({ client_assertion: await sign(es256.privateKey) }, inline)).toBe(inline);
    const rs = await sign(rs256.privateKey, { alg: "RS256", kid: "rs", claims: { aud: issuer } });
    expect(await authenticate({ client_assertion: rs, client_id: clientId }, inline)).toBe(inline);
  });

  it("refuses a request without an assertion", async () => {
    expect(await refusal({}, inline)).toBe("missing");
  });

  it("refuses another client_assertion_type, or none", async () => {
    const assertion = await sign(es256.privateKey);
    expect(
      await refusal(
        { client_assertion: assertion, client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:saml2-bearer" },
        inline,
      ),
    ).toBe("wrong_type");
    expect(await refusal({ client_assertion: assertion, client_assertion_type: undefined }, inline)).toBe("wrong_type");
  });

  it("refuses what is not a signed JWT", async () => {
    expect(await refusal({ client_assertion: "not.a.jwt" }, inline)).toBe("malformed");
  });

  it("refuses a signature by another key under a published kid, and a key it does not publish", async () => {
    expect(await refusal({ client_assertion: await sign(stranger.privateKey) }, inline)).toBe("bad_signature");
    expect(await refusal({ client_assertion: await sign(stranger.privateKey, { kid: "unknown" }) }, inline)).toBe("bad_signature");
    expect(await refusal({ client_assertion: await sign(stranger.privateKey, { kid: undefined }) }, inline)).toBe("bad_signature");
  });

  it("refuses an expired assertion (past the clock skew)", async () => {
    const past = Math.floor(Date.now() / 1000) - 120;
    expect(await refusal({ client_assertion: await sign(es256.privateKey, { claims: { iat: past - 60, exp: past } }) }, inline)).toBe(
      "expired",
    );
  });

  it("refuses an exp more than five minutes ahead", async () => {
    const far = Math.floor(Date.now() / 1000) + 3600;
    expect(await refusal({ client_assertion: await sign(es256.privateKey, { claims: { exp: far } }) }, inline)).toBe("too_long_lived");
  });

  it("refuses an assertion without exp or jti", async () => {
    expect(await refusal({ client_assertion: await sign(es256.privateKey, { claims: { exp: undefined } }) }, inline)).toBe("malformed");
    expect(await refusal({ client_assertion: await sign(es256.privateKey, { claims: { jti: undefined } }) }, inline)).toBe("malformed");
  });

  it("accepts a jti once", async () => {
    const assertion = await sign(es256.privateKey);
    await authenticate({ client_assertion: assertion }, inline);
    expect(await refusal({ client_assertion: assertion }, inline)).toBe("replayed");
    const sameJti = await sign(es256.privateKey, { claims: { jti: "fixed-jti" } });
    await authenticate({ client_assertion: sameJti }, inline);
    expect(await refusal({ client_assertion: await sign(es256.privateKey, { claims: { jti: "fixed-jti" } }) }, inline)).toBe("replayed");
  });

  it("refuses an audience of another server, and says which rule each audience broke", async () => {
    const other = await sign(es256.privateKey, { claims: { aud: "https://other.example/oauth/token" } });
    expect(await refusal({ client_assertion: other }, inline)).toBe("wrong_audience");
    const said = async (aud: string | string[]) =>
      (
        (await authenticate({ client_assertion: await sign(es256.privateKey, { claims: { aud } }) }, inline).catch(
          (e: unknown) => e,
        )) as ClientAssertionRefused
      ).description;
    for (const aud of ["https://other.example/oauth/token", `${issuer}/`, issuer.toUpperCase()])
      expect(await said(aud), aud).toMatch(/aud must be this server's issuer/);
    for (const aud of [[issuer, "https://evil.example"], ["https://evil.example"]])
      expect(await said(aud)).toMatch(/aud must be a single string/);
  });

  it("refuses an audience that is an array, even of this server's own identifiers alone (audience injection)", async () => {
    for (const aud of [[tokenEndpoint, "https://evil.example"], [issuer, "https://evil.example"], [issuer], [tokenEndpoint, issuer]]) {
      const assertion = await sign(es256.privateKey, { claims: { aud } });
      expect(await refusal({ client_assertion: assertion }, inline), JSON.stringify(aud)).toBe("wrong_audience");
    }
    for (const aud of [issuer, tokenEndpoint])
      expect((await authenticate({ client_assertion: await sign(es256.privateKey, { claims: { aud } }) }, inline)).client_id).toBe(
        clientId,
      );
  });

  it("refuses iss other than sub, and sub other than the client_id sent", async () => {
    expect(
      await refusal({ client_assertion: await sign(es256.privateKey, { claims: { iss: "https://evil.example/c.json" } }) }, inline),
    ).toBe("wrong_issuer");
    const assertion = await sign(es256.privateKey);
    expect(await refusal({ client_assertion: assertion, client_id: "https://evil.example/c.json" }, inline)).toBe("not_this_client");
  });

  it("refuses an algorithm outside ES256 and RS256, even with a published key", async () => {
    const hs = await new SignJWT({ sub: clientId }).setProtectedHeader({ alg: "HS256" }).sign(new Uint8Array(32));
    expect(await refusal({ client_assertion: hs }, inline)).toBe("alg_not_allowed");
    const p384 = await generateKeyPair("ES384", { extractable: true });
    const withP384 = client({ jwks: { keys: [...inline.jwks!.keys, await publicJwk(p384, "es384", "ES384")] } });
    const es384 = await sign(p384.privateKey, { alg: "ES384", kid: "es384" });
    expect(await refusal({ client_assertion: es384 }, withP384)).toBe("alg_not_allowed");
  });

  it("refuses a client that does not authenticate with private_key_jwt, or none at all", async () => {
    const assertion = await sign(es256.privateKey);
    expect(await refusal({ client_assertion: assertion }, client({ token_endpoint_auth_method: "none" }))).toBe("not_this_client");
    expect(await refusal({ client_assertion: assertion }, client({ client_id: "https://other.example/c.json" }))).toBe("not_this_client");
  });
});

describe("client assertions with a jwks_uri", () => {
  const byUri = () => client({ jwks_uri: `${jwksUri}?${randomUUID()}` });

  it("fetches the set once and keeps it; a kid not found refreshes it once, then not again within 30 s", async () => {
    const record = byUri();
    served = [await publicJwk(es256, "es", "ES256")];
    fetches = 0;
    await authenticate({ client_assertion: await sign(es256.privateKey) }, record);
    await authenticate({ client_assertion: await sign(es256.privateKey) }, record);
    expect(fetches).toBe(1);

    // The client rotates: its new key is published, and the first assertion with it refreshes the cached set.
    served = [await publicJwk(es256, "es", "ES256"), await publicJwk(rotated, "new", "ES256")];
    await authenticate({ client_assertion: await sign(rotated.privateKey, { kid: "new" }) }, record);
    expect(fetches).toBe(2);
    // An unknown kid right after does not make us fetch again.
    expect(await refusal({ client_assertion: await sign(stranger.privateKey, { kid: "other" }) }, record)).toBe("bad_signature");
    expect(fetches).toBe(2);
  });

  it("refuses with the reason kept for the log when the set cannot be fetched", async () => {
    served = [];
    const error = await authenticate({ client_assertion: await sign(es256.privateKey) }, byUri()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "no_key_set", description: "The client's keys could not be fetched." });
    expect((error as ClientAssertionRefused).reason).toMatch(/answered 404/);
  });
});
