import { SignJWT } from "jose";
import { upstashLimiter } from "../../src/limits/limiter.ts";
import { registerClient } from "../../src/oauth/clients.ts";
import { generateKeySet, importSigningKeys } from "../../src/tokens/keys.ts";
import { consentAddresses } from "../../src/oauth/consent-address.ts";
import { createTokenHandler } from "../../src/oauth/token.ts";
import { compare, describeFigures, measure } from "./stats.ts";
import { startStoreProcess } from "./store-process.ts";

/**
 * Token issuance cost: the token handler called in-process (a web Request in, a Response out; client_credentials,
 * so the client's registration, a SHA-256 of the secret and one ES256 signature) against a bare jose ES256 SignJWT
 * loop in the same process, measured in alternating rounds after both warmed up. The handler keeps a registration it found for a minute (src/oauth/clients.ts), so the
 * first line is a client asking again; the last is a client the instance has not seen, whose registration is read from
 * the LOCAL STORE (the Upstash REST protocol over an in-memory emulator, over loopback HTTP in this process):
 * production Upstash costs a network round trip there instead.
 */
export default async function tokenBench() {
  const store = await startStoreProcess();
  try {
    const redis = store.functionsRedis();
    const keySet = JSON.stringify(await generateKeySet());
    const keys = await importSigningKeys(keySet);
    const baseUrl = "https://studio.example";
    const consentAddress = consentAddresses(keySet);
    const page = { studioName: "", stylesheet: "" };
    const handler = createTokenHandler({ baseUrl, keys, consentAddress, redis, limiter: upstashLimiter(redis), page });
    const register = () =>
      registerClient(
        redis,
        {
          client_name: "bench",
          redirect_uris: [],
          grant_types: ["client_credentials"],
          response_types: [],
          token_endpoint_auth_method: "client_secret_post",
        },
        Date.now(),
      );
    const tokenRequest = async ({ record, secret }: Awaited<ReturnType<typeof register>>) => {
      const body = new URLSearchParams({
        grant_type: "client_credentials",
        client_id: record.client_id,
        client_secret: secret!,
        scope: "svc:brief",
      });
      const response = await handler(
        new Request(`${baseUrl}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }),
        // A registered client fetches no metadata document, and the request's own count is the router's, not measured here.
        { count: async () => undefined, charge: async () => undefined },
      );
      if (response.status !== 200) throw new Error(`token handler answered ${response.status}`);
      await response.arrayBuffer();
    };
    const client = await register();
    const { record } = client;

    const {
      a: viaHandler,
      b: bare,
      ratio,
    } = await compare(
      () => tokenRequest(client),
      () =>
        new SignJWT({ client_id: record.client_id, scope: "svc:read svc:brief" })
          .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: keys.signing.kid })
          .setIssuer(baseUrl)
          .setSubject(record.client_id)
          .setAudience(baseUrl)
          .setIssuedAt()
          .setExpirationTime("1h")
          .setJti(crypto.randomUUID())
          .sign(keys.signing.key),
    );

    // Every call a client this instance has not seen: one registration each, read from the store.
    const unseen = await Promise.all(Array.from({ length: 550 }, register));
    const viaStore = await measure(() => tokenRequest(unseen.pop()!));

    console.log(describeFigures("token handler (local store, own process)", viaHandler));
    console.log(describeFigures("bare jose ES256 SignJWT", bare));
    console.log(`\nthroughput ratio handler / bare signing: ${ratio.toFixed(2)} (median of interleaved rounds)`);
    console.log(`median overhead per token beyond signing: ${(viaHandler.p50 - bare.p50).toFixed(2)} ms (form parsing, hashing)`);
    console.log(`\n${describeFigures("the same, a client not seen for a minute", viaStore)}`);
    console.log(
      `  throughput ratio to bare signing: ${(viaStore.perSecond / bare.perSecond).toFixed(2)}; its registration read from the local store adds ${(viaStore.p50 - viaHandler.p50).toFixed(2)} ms (p50)`,
    );
  } finally {
    await store.close();
  }
}
