import { deliverDue } from "../../src/briefs/deliver.ts";
import { startDeployment } from "../../tests/support/deployment.ts";

/**
 * The paid units of each operation: Upstash commands (counted where the store receives them: the Upstash REST gateway
 * in front of the machine's Redis, or the local store without one) and Postmark API calls (counted at the Postmark
 * stand-in the real `postmark` client talks to). The handlers are the resilience suite's deployment: every function
 * wired from an environment exactly as its Netlify adapter wires it, requests under /api through the edge gateway
 * first. Work a handler hands to `waitUntil` (the first e-mail) is awaited and counted.
 */
export default async function unitsBench() {
  const d = await startDeployment(10);
  const rows: [string, string, number][] = [];
  async function count(operation: string, run: () => Promise<unknown>) {
    const [before, attemptsBefore] = [d.store.commands.length, d.postmark.attempts];
    const result = await run();
    if (result instanceof Response) {
      if (result.status >= 400) throw new Error(`${operation}: ${result.status} ${await result.text()}`);
      await result.arrayBuffer();
    }
    await d.settle();
    const used = d.store.commands.slice(before).map(([name]) => String(name).toLowerCase());
    const byName = [...new Set(used)].map((name) => `${used.filter((n) => n === name).length} ${name}`).join(", ");
    rows.push([operation, `${used.length}${byName ? ` (${byName})` : ""}`, d.postmark.attempts - attemptsBefore]);
  }
  const json = (body: unknown, headers: Record<string, string> = {}) => ({
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  const brief = (n: number) => ({ full_name: `Ada ${n}`, company_name: `Engines ${n}`, work_email: `ada${n}@engines.example` });
  const rpc = (method: string, params: object) => ({ jsonrpc: "2.0", id: 1, method, params });
  const message = (data: object) =>
    rpc("SendMessage", { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ data }] } });

  try {
    // Once uncounted: the store's first run of the quota script loads it (an EVAL after a NOSCRIPT), as Upstash does.
    await (await d.api("/api/v1/company")).arrayBuffer();
    await count("GET /api/v1/company", () => d.api("/api/v1/company"));
    let registration: { client_id: string; client_secret: string } | undefined;
    await count("POST /oauth/register (client_credentials)", async () => {
      const body = { client_name: "units", grant_types: ["client_credentials"], token_endpoint_auth_method: "client_secret_post" };
      const response = await d.oauth("/oauth/register", json(body));
      registration = (await response.clone().json()) as typeof registration;
      return response;
    });
    let token = "";
    await count("POST /oauth/token (client_credentials)", async () => {
      const form = new URLSearchParams({ grant_type: "client_credentials", ...registration!, scope: "svc:read svc:brief" });
      const response = await d.oauth("/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form,
      });
      token = ((await response.clone().json()) as { access_token: string }).access_token;
      return response;
    });
    const bearer = { authorization: `Bearer ${token}` };
    await count("POST /api/v1/briefs, dry run", () => d.api("/api/v1/briefs", json({ ...brief(1), dry_run: true }, bearer)));
    const keyed = { ...bearer, "idempotency-key": "units-1" };
    await count("POST /api/v1/briefs, filed and e-mailed", () => d.api("/api/v1/briefs", json(brief(2), keyed)));
    await count("  the same, retried with its Idempotency-Key", () => d.api("/api/v1/briefs", json(brief(2), keyed)));
    await count("POST /contact (the form), filed and e-mailed", () =>
      d.contact({
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://studio.example" },
        body: new URLSearchParams(brief(3)),
      }),
    );
    await count("MCP tools/list", () => d.mcp(json(rpc("tools/list", {}))));
    // Once uncounted: the first count for a grant loads its script, as the library's first count did above.
    await (await d.mcp(json(rpc("tools/list", {}), bearer))).arrayBuffer();
    await count("MCP tools/list with a token (its grant and address)", () => d.mcp(json(rpc("tools/list", {}), bearer)));
    await count("MCP tools/call get_company", () => d.mcp(json(rpc("tools/call", { name: "get_company", arguments: {} }))));
    // A 2025-03-26 batch counts each of its messages (10 here), still in one command.
    const reads = Array.from({ length: 10 }, (_, i) => ({ ...rpc("tools/call", { name: "get_company", arguments: {} }), id: i + 1 }));
    const v2025_03_26 = { "mcp-protocol-version": "2025-03-26" };
    await count("MCP 2025-03-26 batch of 10 reads (counted as 10)", () => d.mcp(json(reads, v2025_03_26)));
    await count("  the same with a token (its grant and address)", () => d.mcp(json(reads, { ...v2025_03_26, ...bearer })));
    await count("MCP tools/call submit_project_brief", () =>
      d.mcp(json(rpc("tools/call", { name: "submit_project_brief", arguments: brief(4) }), bearer)),
    );
    const a2aVersion = { "a2a-version": "1.0" };
    await count("A2A SendMessage, read skill (offers)", () => d.a2a(json(message({ skill: "offers" }), a2aVersion)));
    await count("  the same with a token (its grant and address)", () =>
      d.a2a(json(message({ skill: "offers" }), { ...a2aVersion, ...bearer })),
    );
    await count("A2A SendMessage, brief skill", () =>
      d.a2a(json(message({ skill: "svc-project-brief", ...brief(5) }), { ...a2aVersion, ...bearer })),
    );
    const deliver = (now = Date.now) => deliverDue({ ...d.deliveryJob(), now });
    await count("lead delivery job, nothing due (every minute)", deliver);
    d.postmark.fail("503");
    await count("POST /api/v1/briefs while Postmark answers 503", () => d.api("/api/v1/briefs", json(brief(6), bearer)));
    // The job as it runs an hour later, when the failed lead's retry is due.
    await count("lead delivery job, one lead due again", () => deliver(() => Date.now() + 3_600_000));

    console.log(`operation${" ".repeat(42)}Upstash commands${" ".repeat(47)}Postmark calls`);
    for (const [operation, used, mails] of rows) console.log(`${operation.padEnd(50)} ${used.padEnd(62)} ${mails}`);
  } finally {
    await d.settle();
    await d.close();
  }
}
