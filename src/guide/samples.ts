import { protocolVersions } from "../a2a/constants.ts";
import { briefExamples, briefSkillId } from "../a2a/skills.ts";
import { policyField } from "../limits/headers.ts";
import { policies } from "../limits/policies.ts";
import { legacyProtocolVersions, modernProtocolVersions } from "../mcp/versions.ts";
import { a2aPath, absolute, briefsPath, mcpPath, oauthPaths } from "../paths.ts";
import type { Site } from "../site/model.ts";

/** The code samples the guide cannot hold as plain Markdown: each one is built from what the code and content say. */

export const briefSample = (site: Site) =>
  `curl -X POST ${absolute(site.baseUrl, briefsPath)} \\
  -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
  -H "Idempotency-Key: $(openssl rand -hex 16)" \\
  -d '{"full_name":"Ada Lovelace","company_name":"Analytical Engines","work_email":"ada@engines.example","site_size":"${site.siteOffers[0]!.id}","dry_run":true}'`;

export const invalidBriefSample = () =>
  JSON.stringify(
    {
      code: "invalid_brief",
      status: 422,
      errors: [{ field: "/work_email", code: "invalid_format", message: "work_email must be an e-mail address such as ada@example.com" }],
    },
    null,
    2,
  );

/** The quota headers of a response with three requests spent and 42 seconds of its window left. */
export function quotaHeadersSample() {
  const { quota } = policies["public-api"];
  return [
    `RateLimit-Policy: ${policyField("public-api")}`,
    `RateLimit: "public-api";r=${quota - 3};t=42`,
    `RateLimit-Limit: ${quota}`,
    `RateLimit-Remaining: ${quota - 3}`,
    "RateLimit-Reset: 42",
  ].join("\n");
}

/** A 2026-07-28 client's first request: `server/discover`, with the `_meta` envelope and the headers every request carries. */
export function mcpDiscoverSample(site: Site) {
  const [revision] = modernProtocolVersions;
  const body = {
    jsonrpc: "2.0",
    id: 1,
    method: "server/discover",
    params: {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": revision,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "curl", version: "1" },
      },
    },
  };
  return `curl ${absolute(site.baseUrl, mcpPath)} \\
  -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \\
  -H 'MCP-Protocol-Version: ${revision}' -H 'Mcp-Method: server/discover' \\
  -d '${JSON.stringify(body)}'`;
}

/** A 2025-era client's first request: the `initialize` handshake. */
export function mcpInitializeSample(site: Site) {
  const body = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: legacyProtocolVersions[0], capabilities: {}, clientInfo: { name: "curl", version: "1" } },
  };
  return `curl ${absolute(site.baseUrl, mcpPath)} \\
  -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \\
  -d '${JSON.stringify(body)}'`;
}

export function authorizationCodeSample(site: Site) {
  const url = (path: string) => absolute(site.baseUrl, path);
  const loopback = "http://127.0.0.1:8765/callback";
  return `${url(oauthPaths.authorize)}?response_type=code&client_id=$CLIENT_ID\\
  &redirect_uri=${encodeURIComponent(loopback)}&state=$STATE\\
  &code_challenge=$CHALLENGE&code_challenge_method=S256&scope=svc:brief&resource=${encodeURIComponent(url(mcpPath))}

curl -X POST ${url(oauthPaths.token)} \\
  -d grant_type=authorization_code -d code="$CODE" -d code_verifier="$VERIFIER" \\
  -d redirect_uri=${loopback} -d client_id="$CLIENT_ID"`;
}

/** A brief sent to the A2A skill: the skill's own example, as one data part. */
export function a2aBriefSample(site: Site) {
  const brief = { ...JSON.parse(briefExamples[0]!), skill: undefined };
  const request = {
    jsonrpc: "2.0",
    id: 1,
    method: "SendMessage",
    params: {
      message: {
        messageId: "m-1",
        role: "ROLE_USER",
        metadata: { skillId: briefSkillId },
        parts: [{ data: JSON.parse(JSON.stringify(brief)), mediaType: "application/json" }],
      },
    },
  };
  return `curl -X POST ${absolute(site.baseUrl, a2aPath)} \\
  -H 'Content-Type: application/json' -H 'A2A-Version: ${protocolVersions[0]}' -H "Authorization: Bearer $TOKEN" \\
  -d '${JSON.stringify(request)}'`;
}
