import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLocalJWKSet, jwtVerify } from "jose";
import { briefsHandlerFromEnv } from "../../src/api/briefs-from-env.ts";
import { briefSchema } from "../../src/briefs/schema.ts";
import { issueAccessToken } from "../../src/oauth/access-token.ts";
import { consentGrantId } from "../../src/oauth/grants.ts";
import { generateKeySet, importSigningKeys } from "../../src/tokens/keys.ts";
import { siteSizeIds, type PrebuiltResources } from "../../src/resources/prebuilt.ts";
import { startLocalStore } from "../local-store/store.ts";
import { describeFigures, measure } from "./stats.ts";

/**
 * A `dry_run` brief: the briefs function called in-process as Netlify calls it (bearer token verified, body read and
 * parsed, the brief validated, nothing filed), against its unavoidable work done bare in the same process: one jose
 * ES256 jwtVerify of the same token and one zod safeParse of the same body. A dry run touches no store.
 */
export default async function briefsBench() {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const prebuilt = JSON.parse(await readFile(join(root, "dist/api/v1/prebuilt.json"), "utf8")) as PrebuiltResources;
  const dir = await mkdtemp(join(tmpdir(), "frontdoor-bench-"));
  const store = await startLocalStore({ token: "bench", snapshotFile: join(dir, "store.json") });
  try {
    const base = "https://studio.example";
    const keySet = JSON.stringify(await generateKeySet());
    const variables: Record<string, string> = {
      URL: base,
      UPSTASH_REDIS_REST_URL: store.url,
      UPSTASH_REDIS_REST_TOKEN: store.token,
      OAUTH_SIGNING_KEYS: keySet,
    };
    const handler = briefsHandlerFromEnv((name) => variables[name], prebuilt);
    const keys = await importSigningKeys(keySet);
    const { access_token: token } = await issueAccessToken(
      keys,
      base,
      { clientId: "bench-client", grantId: consentGrantId(), scope: "svc:brief", audience: base },
      Date.now(),
    );
    const body = {
      full_name: "Ada Lovelace",
      company_name: "Analytical Engines",
      work_email: "ada@engines.example",
      site_size: "growth-site",
      dry_run: true,
    };
    const text = JSON.stringify(body);

    const viaHandler = await measure(
      async () => {
        const response = await handler(
          new Request(`${base}/api/v1/briefs`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
            body: text,
          }),
          { ip: "10.0.0.1", waitUntil: () => {} },
        );
        if (response.status !== 200) throw new Error(`the briefs function answered ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
      },
      { warmup: 100, count: 2_000 },
    );
    const jwks = createLocalJWKSet(keys.publicJwks);
    const schema = briefSchema(siteSizeIds(prebuilt));
    const bare = await measure(
      async () => {
        await jwtVerify(token, jwks, { issuer: base, audience: base });
        if (!schema.safeParse(JSON.parse(text)).success) throw new Error("the bench's brief is invalid");
      },
      { warmup: 100, count: 2_000 },
    );

    console.log(describeFigures("dry_run brief, briefs function (in-process)", viaHandler));
    console.log(describeFigures("bare jose jwtVerify + zod safeParse", bare));
    console.log(`\nthroughput ratio function / bare: ${(viaHandler.perSecond / bare.perSecond).toFixed(2)}`);
    console.log(`median overhead: ${(viaHandler.p50 - bare.p50).toFixed(3)} ms (the Request, the capped body read, the response)`);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
