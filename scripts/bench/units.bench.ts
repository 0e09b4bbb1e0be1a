import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { a2aHandlerFromEnv } from "../../src/a2a/from-env.ts";
import { apiGatewayFromEnv } from "../../src/api/from-env.ts";
import { deliveryFromEnv } from "../../src/briefs/delivery-config.ts";
import { deliverDue } from "../../src/briefs/deliver.ts";
import { briefsHandlerFromEnv } from "../../src/briefs/from-env.ts";
import type { Env } from "../../src/config/env.ts";
import { contactHandlerFromEnv } from "../../src/contact/from-env.ts";
import { mcpHandlerFromEnv } from "../../src/mcp/from-env.ts";
import { oauthHandlerFromEnv } from "../../src/oauth/from-env.ts";
import { generateKeySet } from "../../src/oauth/keys.ts";
import type { PrebuiltResources } from "../../src/resources/prebuilt.ts";
import { startPostmarkStandIn } from "../../tests/support/postmark-standin.ts";
import { startLocalStore } from "../local-store/store.ts";

const base = "https://studio.example";

/**
 * The paid units of each operation: Upstash commands (counted at the local store, which speaks the Upstash REST
 * protocol) and Postmark API calls (counted at the Postmark stand-in the real `postmark` client talks to). Every
 * handler is wired from an environment exactly as its Netlify function wires it, and requests under /api pass the
 * edge gateway first, as on a deploy. Work a handler hands to `waitUntil` (the first e-mail) is awaited and counted.
 */
export default async function unitsBench() {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const prebuilt = JSON.parse(await readFile(join(root, "dist/api/v1/prebuilt.json"), "utf8")) as PrebuiltResources;
  const card = JSON.parse(await readFile(join(root, "dist/.well-known/mcp/server-card.json"), "utf8")) as object;
  const dir = await mkdtemp(join(tmpdir(), "frontdoor-units-"));
  const commands: string[] = [];
  const store = await startLocalStore({
    token: "units",
    snapshotFile: join(dir, "store.json"),
    onCommand: ([name]) => commands.push(String(name)),
  });
  const postmark = await startPostmarkStandIn("units-postmark", 2_000);
  const variables: Record<string, string> = {
    URL: base,
    UPSTASH_REDIS_REST_URL: store.url,
    UPSTASH_REDIS_REST_TOKEN: store.token,
    OAUTH_SIGNING_KEYS: JSON.stringify(await generateKeySet()),
    POSTMARK_SERVER_TOKEN: postmark.token,
    POSTMARK_API_URL: postmark.url,
    LEADS_TO: "leads@studio.example",
    LEADS_FROM: "website@studio.example",
  };
  const env: Env = (name) => variables[name];
  const pending: Promise<unknown>[] = [];
  const background = (work: Promise<unknown>) => void pending.push(work);
  let client = 0;
  const ip = () => `10.0.${(client >> 8) & 255}.${client++ & 255}`;

  const briefs = briefsHandlerFromEnv(env, prebuilt);
  const api = apiGatewayFromEnv(env);
  const staticFile = async (request: Request) =>
    new URL(request.url).pathname === "/api/v1/briefs"
      ? briefs(request, background)
      : new Response(await readFile(join(root, "dist", `${new URL(request.url).pathname}.json`)), {
          headers: { "content-type": "application/json" },
        });
  const viaGateway = (request: Request) => api(request, { ip: ip(), next: (r) => staticFile(r ?? request) });
  const oauth = oauthHandlerFromEnv(env);
  const mcp = mcpHandlerFromEnv(env, prebuilt, card);
  const a2a = a2aHandlerFromEnv(env, prebuilt);
  const contact = contactHandlerFromEnv(env, prebuilt);

  const rows: [string, string, number][] = [];
  async function count(operation: string, run: () => Promise<Response | unknown>) {
    const [before, sentBefore] = [commands.length, postmark.attempts];
    const result = await run();
    if (result instanceof Response) {
      if (result.status >= 400) throw new Error(`${operation}: ${result.status} ${await result.text()}`);
      await result.arrayBuffer();
    }
    await Promise.all(pending.splice(0));
    const used = commands.slice(before);
    const byName = [...new Set(used)].map((name) => `${used.filter((n) => n === name).length} ${name}`).join(", ");
    rows.push([operation, `${used.length}${byName ? ` (${byName})` : ""}`, postmark.attempts - sentBefore]);
  }
  const json = (body: unknown, headers: Record<string, string> = {}) => ({
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", host: new URL(base).host, ...headers },
    body: JSON.stringify(body),
  });
  const brief = (n: number) => ({ full_name: `Ada ${n}`, company_name: `Engines ${n}`, work_email: `ada${n}@engines.example` });

  try {
    // Once uncounted: the store's first run of the quota script loads it (an EVAL after a NOSCRIPT), as Upstash does.
    await (await viaGateway(new Request(`${base}/api/v1/company`))).arrayBuffer();
    await count("GET /api/v1/company", () => viaGateway(new Request(`${base}/api/v1/company`)));
    let registration: { client_id: string; client_secret: string } | undefined;
    await count("POST /oauth/register (client_credentials)", async () => {
      const response = await oauth(
        new Request(
          `${base}/oauth/register`,
          json({ client_name: "units", grant_types: ["client_credentials"], token_endpoint_auth_method: "client_secret_post" }),
        ),
        { ip: ip() },
      );
      registration = (await response.clone().json()) as typeof registration;
      return response;
    });
    let token = "";
    await count("POST /oauth/token (client_credentials)", async () => {
      const form = new URLSearchParams({
        grant_type: "client_credentials",
        client_id: registration!.client_id,
        client_secret: registration!.client_secret,
        scope: "svc:read svc:brief",
      });
      const response = await oauth(
        new Request(`${base}/oauth/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: form,
        }),
        { ip: ip() },
      );
      token = ((await response.clone().json()) as { access_token: string }).access_token;
      return response;
    });
    const bearer = { authorization: `Bearer ${token}` };
    await count("POST /api/v1/briefs, dry run", () =>
      viaGateway(new Request(`${base}/api/v1/briefs`, json({ ...brief(1), dry_run: true }, bearer))),
    );
    await count("POST /api/v1/briefs, filed and e-mailed", () =>
      viaGateway(new Request(`${base}/api/v1/briefs`, json(brief(2), { ...bearer, "idempotency-key": "units-1" }))),
    );
    await count("  the same, retried with its Idempotency-Key", () =>
      viaGateway(new Request(`${base}/api/v1/briefs`, json(brief(2), { ...bearer, "idempotency-key": "units-1" }))),
    );
    await count("POST /contact (the form), filed and e-mailed", () =>
      contact(
        new Request(`${base}/contact`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
          body: new URLSearchParams(brief(3)),
        }),
        { ip: ip(), background },
      ),
    );
    const rpc = (method: string, params: object) => ({ jsonrpc: "2.0", id: 1, method, params });
    await count("MCP tools/list", () => mcp(new Request(`${base}/mcp`, json(rpc("tools/list", {}))), { ip: ip() }));
    await count("MCP tools/call get_company", () =>
      mcp(new Request(`${base}/mcp`, json(rpc("tools/call", { name: "get_company", arguments: {} }))), { ip: ip() }),
    );
    await count("MCP tools/call submit_project_brief", () =>
      mcp(new Request(`${base}/mcp`, json(rpc("tools/call", { name: "submit_project_brief", arguments: brief(4) }), bearer)), { ip: ip() }),
    );
    const message = (data: object) =>
      rpc("SendMessage", { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ data }] } });
    const a2aHeaders = { "a2a-version": "1.0" };
    await count("A2A SendMessage, read skill (offers)", () =>
      a2a(new Request(`${base}/a2a/v1`, json(message({ skill: "offers" }), a2aHeaders)), { ip: ip(), background }),
    );
    await count("A2A SendMessage, brief skill", () =>
      a2a(new Request(`${base}/a2a/v1`, json(message({ skill: "svc-project-brief", ...brief(5) }), { ...a2aHeaders, ...bearer })), {
        ip: ip(),
        background,
      }),
    );
    const deliver = (now = Date.now) => deliverDue({ ...deliveryFromEnv(env, prebuilt), now });
    await count("lead delivery job, nothing due (every minute)", deliver);
    postmark.fail("503");
    await count("POST /api/v1/briefs while Postmark answers 503", () =>
      viaGateway(new Request(`${base}/api/v1/briefs`, json(brief(6), bearer))),
    );
    // The job as it runs an hour later, when the failed lead's retry is due.
    await count("lead delivery job, one lead due again", () => deliver(() => Date.now() + 3_600_000));

    console.log(
      "operation                                          Upstash commands                                               Postmark calls",
    );
    for (const [operation, used, mails] of rows) console.log(`${operation.padEnd(50)} ${used.padEnd(62)} ${mails}`);
  } finally {
    await Promise.allSettled(pending);
    await postmark.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
