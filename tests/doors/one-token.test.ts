import { describe, expect, it } from "vitest";
import { freshBrief } from "../support/briefs.ts";
import { a2aSend, form, mcpCall } from "../support/calls.ts";
import { fileDeployment } from "../support/deployment.ts";
import { registerClient } from "../support/deployment-oauth.ts";

/**
 * One token for any of the three resources (the origin, /mcp, /a2a/v1), in-process: a client-credentials token issued
 * for one is accepted by the others' doors. tests/runtime/recipes.test.ts follows the skills' recipes end to end.
 */
const d = fileDeployment("local").d;

async function tokenFor(resource: string): Promise<string> {
  const client = await registerClient(d);
  const res = await d.oauth("/oauth/token", form({ grant_type: "client_credentials", scope: "svc:brief", resource, ...client }));
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

describe("one token, three resources", () => {
  it.each([
    ["/mcp", "/a2a/v1"],
    ["/a2a/v1", "/mcp"],
    ["", "/mcp"],
    ["", "/a2a/v1"],
  ])("a token issued for the origin%s files a dry-run brief at %s", async (issuedFor, usedAt) => {
    const authorization = `Bearer ${await tokenFor(`${d.baseUrl}${issuedFor}`)}`;
    const brief = freshBrief({ dry_run: true });
    const res =
      usedAt === "/mcp"
        ? await d.mcp(mcpCall("tools/call", { name: "submit_project_brief", arguments: brief }, 1, { authorization }))
        : await d.a2a(a2aSend([{ data: { skill: "svc-project-brief", ...brief } }], { authorization }));
    expect(res.status).toBe(200);
    const body = JSON.stringify(await res.json());
    expect(body).not.toContain('"error"');
    expect(body).toContain('"dry_run":true');
  });
});
