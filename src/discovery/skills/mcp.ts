import { bookingScope, bookingToolNames } from "../../booking/names.ts";
import { briefToolName } from "../../mcp/brief-tool.ts";
import { legacyProtocolVersions, modernProtocolVersions } from "../../mcp/versions.ts";
import { batchRevision, maxBatchMessages, requestStateTtlSeconds } from "../../mcp/constants.ts";

import { readTools } from "../../mcp/read-tools.ts";
import { inWords, perWindow, policies } from "../../limits/policies.ts";
import { mcpErrorsAnchor } from "../../mcp/errors.ts";

import { prebuiltResources } from "../../resources/prebuilt.ts";
import type { Site } from "../../site/model.ts";

import { confirmationRule, guideReference, skillPrefix, type Skill } from "./common.ts";
import {
  mcpPath,
  serverCardPath,
  aiCatalogPath,
  protectedResourceMetadataPath,
  absolute,
  guidePagePaths,
  a2aPath,
  skillsPath,
} from "../../paths.ts";

export function mcpSkill(site: Site): Skill {
  const url = (path: string) => absolute(site.baseUrl, path);
  const tools = readTools(prebuiltResources(site));
  const quota = policies.mcp;
  return {
    name: `${skillPrefix(site)}-mcp`,
    description: `Connect to ${site.company.name}'s MCP server at ${url(mcpPath)} (Streamable HTTP) to read its services, offers, case studies and contact details, and to file a project brief with the ${briefToolName} tool. Use from an MCP client.`,
    body: `# ${site.company.name} over MCP

Server: ${url(mcpPath)}, Streamable HTTP, stateless (no session id). Its server card (identity, endpoint, the revisions it serves) is at ${url(serverCardPath)}, and the site's AI catalog at ${url(aiCatalogPath)} lists it with the A2A agent card and these skills.

Protocol: ${modernProtocolVersions.join(", ")} and the 2025 revisions (${legacyProtocolVersions.join(", ")}), on the same URL. Each request picks: one whose params carry \`_meta["io.modelcontextprotocol/protocolVersion"]\` is served in that revision (start with \`server/discover\`; send the \`MCP-Protocol-Version\`, \`Mcp-Method\` and \`Mcp-Name\` headers), any other in the 2025 era (start with \`initialize\`). With the TypeScript SDK's client, \`versionNegotiation: { mode: 'auto' }\` probes and picks; its default is the 2025 handshake.

## 1. Connect and read (no token)

Connect (\`server/discover\` or \`initialize\`), then \`tools/list\`. Read tools, all read-only and answering with the same JSON as the REST API:

${tools.map((t) => `- \`${t.name}\`: ${t.description.split(". ")[0]}.`).join("\n")}

Every resource is also an MCP resource (\`resources/list\`, \`resources/read\`), and the prompt \`prepare_project_brief\` walks you through collecting a brief. This skill and the site's others are served there too (the MCP Skills extension, \`io.modelcontextprotocol/skills\`): \`skills/list\` and \`skills/get\` give each skill's files with their SHA-256 digests, and \`resources/read\` of \`skill://{skill}/{file}\` their text, the same bytes as under ${url(skillsPath)}/.

## 2. File a brief with \`${briefToolName}\`

${confirmationRule}

Calling \`${briefToolName}\` without a token answers HTTP 401 with \`WWW-Authenticate: Bearer resource_metadata="${url(protectedResourceMetadataPath("mcp"))}", scope="svc:brief"\`: standard MCP clients then run OAuth by themselves (metadata discovery, dynamic registration or a client metadata document, PKCE; a document may declare private_key_jwt and sign a client assertion instead of staying public). A token without \`svc:brief\` answers 403 \`insufficient_scope\`: ask for a token with that scope. Tokens issued for ${url(mcpPath)}, ${url(a2aPath)} or ${url("")} all work.

Pass \`dry_run: true\` first, then the real call; pass an \`idempotency_key\` to make retries safe. When a field is invalid the tool result has \`isError: true\` and names each field: fix them, confirm with the person, call again.

If your client speaks ${modernProtocolVersions.join(", ")} and declares form elicitation (\`elicitation: {}\` in \`_meta["io.modelcontextprotocol/clientCapabilities"]\`), the real call first answers \`resultType: "input_required"\` with a form (key \`contact\`: name, company, work e-mail, filled in from your arguments) and a \`requestState\`. Show the person the form, then call again with the same arguments, their answer in \`inputResponses\` and the \`requestState\` unchanged (the TypeScript SDK's client does this by itself when it has an \`elicitation/create\` handler). Only \`accept\` files the brief, with the values the person left in the form; \`decline\` or \`cancel\` files nothing, and the result says so: do not file again unless they ask. The state is valid for ${inWords(requestStateTtlSeconds)}, for your token's grant and these arguments only (otherwise -32602 "Invalid or expired requestState"). A dry run never asks; 2025-era clients are never asked, so confirm with the person yourself before calling.

${site.agentBooking ? bookingSection(url) : ""}## 3. Limits and errors

${quota.quota} requests per ${quota.windowSeconds} seconds per grant with a valid token (the token's \`grant_id\`: each person who approves your client counts apart), per IP address without one (RateLimit headers on every answer; HTTP 429 with Retry-After past it); bodies up to 64 KB. Send one message per POST: JSON-RPC batches are taken only from ${batchRevision} clients (at most ${maxBatchMessages} messages, each counted as a request), and refused with -32600 on every other revision. Briefs: ${policies["briefs-per-grant"].quota} ${perWindow(policies["briefs-per-grant"].windowSeconds)} per grant. Errors are JSON-RPC errors whose \`data.code\` matches the REST codes (${url(guidePagePaths.mcp)}#${mcpErrorsAnchor}).
`,
    references: [
      guideReference(
        site,
        "mcp",
        "the developer guide's MCP page: both protocol eras, every tool, resource and prompt, the skills, every error code",
      ),
    ],
  };
}

/** Where agents can book: the intro call's three tools. */
const bookingSection = (url: (path: string) => string) => {
  const { freeTimes, book, cancel } = bookingToolNames;
  return `## 2b. Book the intro call

After a brief (or without one), when the person asks for a call: \`${freeTimes}\` (no token) lists free times in their time zone; offer a few, and book the one they choose with \`${book}\` (the same token as the brief: ${bookingScope}), passing the brief's \`lead_id\`. A 2026-07-28 client that shows forms gets a form first (name, work e-mail, and the time among that day's free times); only \`accept\` books. A taken time is an isError result with fresh \`free_times\`: ask the person again. \`${cancel}\` cancels with the \`booking_id\`; only the grant that booked sees or cancels it. The prompt \`book_intro_call\` walks through it; details at ${url(guidePagePaths.booking)}.

`;
};
