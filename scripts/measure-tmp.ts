import { startIsolatedRuntime } from "./runtime/isolated.ts";
const rt = await startIsolatedRuntime(process.cwd(), { FRONTDOOR_ALLOW_LOOPBACK_CIMD: "1" });
const base = rt.url;
try {
  const reg = await (await fetch(`${base}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "m", grant_types: ["client_credentials"], token_endpoint_auth_method: "client_secret_post", redirect_uris: [] }) })).json() as any;
  const tok = await (await fetch(`${base}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "client_credentials", client_id: reg.client_id, client_secret: reg.client_secret, scope: "svc:read" }) })).json() as any;
  const brief = JSON.stringify({ name: "A", email: "a@example.com", company: "C", summary: "x".repeat(40), consent: true });
  const cases: Record<string, (auth?: string) => Promise<Response>> = {
    rest: (auth) => fetch(`${base}/api/v1/briefs`, { method: "POST", headers: { "content-type": "application/json", ...(auth ? { authorization: auth } : {}) }, body: brief }),
    mcp: (auth) => fetch(`${base}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18", ...(auth ? { authorization: auth } : {}) }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "submit_project_brief", arguments: {} } }) }),
    a2a: (auth) => fetch(`${base}/a2a/v1`, { method: "POST", headers: { "content-type": "application/json", "a2a-version": "1.0", ...(auth ? { authorization: auth } : {}) }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ data: { data: { skill: "submit_project_brief" } } }] } } }) }),
  };
  for (const [name, call] of Object.entries(cases)) {
    for (const [label, auth] of [["none", undefined], ["401", "Bearer nope"], ["403", `Bearer ${tok.access_token}`]] as const) {
      const times: number[] = [];
      let status = 0;
      for (let i = 0; i < 5; i++) { const t = performance.now(); const r = await call(auth); await r.text(); status = r.status; times.push(performance.now() - t); }
      times.sort((a, b) => a - b);
      console.log(name, label, status, times.map((t) => t.toFixed(0)).join(" "), "median", times[2]!.toFixed(0));
    }
  }
} finally { await rt.stop(); }
