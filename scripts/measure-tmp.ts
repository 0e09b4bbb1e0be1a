import { startIsolatedRuntime } from "./runtime/isolated.ts";
import { clientCredentialsToken } from "../tests/support/oauth-client.ts";
const rt = await startIsolatedRuntime(process.cwd());
const base = rt.url;
try {
  const { token } = await clientCredentialsToken(base, "svc:read");
  const time = async (label: string, f: () => Promise<Response>) => {
    const times: number[] = [];
    let status = 0;
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const r = await f();
      status = r.status;
      await r.text();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(label, status, "median", times[2]!.toFixed(0));
  };
  const brief = JSON.stringify({ full_name: "a", company_name: "b", work_email: "a@b.example" });
  for (const auth of [undefined, token]) {
    const h = { "content-type": "application/json", ...(auth ? { authorization: `Bearer ${auth}` } : {}) };
    await time(`rest ${auth ? "403" : "401"}`, () => fetch(`${base}/api/v1/briefs`, { method: "POST", headers: h, body: brief }));
    await time(`mcp ${auth ? "403" : "401"}`, () =>
      fetch(`${base}/mcp`, {
        method: "POST",
        headers: { ...h, accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "submit_project_brief", arguments: JSON.parse(brief) },
        }),
      }),
    );
    await time(`a2a ${auth ? "403" : "401"}`, () =>
      fetch(`${base}/a2a/v1`, {
        method: "POST",
        headers: { ...h, "a2a-version": "1.0" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "SendMessage",
          params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ data: JSON.parse(brief) }] } },
        }),
      }),
    );
  }
} finally {
  await rt.stop();
}
