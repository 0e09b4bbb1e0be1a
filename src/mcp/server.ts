import {
  CLIENT_CAPABILITIES_META_KEY,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type AuthInfo,
  type ClientCapabilities,
} from "@modelcontextprotocol/server";
import type { SkillCatalog } from "@modelcontextprotocol/server/ext/skills";
import { z } from "zod";
import { jsonBody } from "../resources/json.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { bookingToolNames } from "../booking/names.ts";
import { bookingTools, type BookingService } from "./booking-tools.ts";
import { briefTool, briefToolName, briefToolScope, type BriefFiling } from "./brief-tool.ts";
import { listTtlSeconds, resourceTtlSeconds } from "./constants.ts";
import { promptDefinitions, type PromptDefinition } from "./prompts.ts";
import { readTools } from "./read-tools.ts";
import type { FormDecisions } from "./form-decisions.ts";
import type { StateCodec } from "./request-state.ts";
import { resourceDefinitions, type ResourceDefinition } from "./resources.ts";
import type { Caller, Tool, ToolCall, ToolDefinition } from "./tool.ts";

export const serverVersion = "1.0.0";

/** The protocol era a server instance serves: the 2025 `initialize` handshake, or 2026-07-28 and its `_meta` envelope. */
export type Era = ToolCall["era"];

/**
 * Every tool, read tools first, then the brief, then the intro call's (where the build says agents can book); the order
 * is stable (2026-07-28 asks for deterministic lists).
 */
export const mcpTools = (prebuilt: PrebuiltResources, filing: BriefFiling, booking: BookingService): Tool[] => [
  ...readTools(prebuilt),
  briefTool(filing),
  ...bookingTools(prebuilt, booking),
];

export const toolDefinition = ({ name, title, description, inputSchema, outputSchema, annotations }: ToolDefinition): ToolDefinition => ({
  name,
  title,
  description,
  inputSchema,
  outputSchema,
  annotations,
});

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "") || "studio";

export const serverInfo = (prebuilt: PrebuiltResources) => ({
  name: `${slug(prebuilt.site.name)}-facts`,
  title: `${prebuilt.site.name} facts`,
  version: serverVersion,
  websiteUrl: prebuilt.site.base_url,
});

export const serverInstructions = (prebuilt: PrebuiltResources, skills?: SkillCatalog) =>
  `Public facts about ${prebuilt.site.name}, a web-development studio: company, offers (USD), case studies, pages, contact. ` +
  `Every read tool and resource needs no token. ${briefToolName} files a real lead that a person answers by e-mail: call it only ` +
  `when the person asked to be contacted and confirmed their name, company and work e-mail; it needs a token with ${briefToolScope}.` +
  (prebuilt.contact.booking.agents
    ? ` After a brief, ${bookingToolNames.freeTimes} and ${bookingToolNames.book} book the intro call for a time the person chose and confirmed (same token).`
    : "") +
  (skills && skills.entries.length > 0
    ? ` Skills for this server, the REST API and the A2A agent (SKILL.md and reference files): ${skills.entries.map((s) => s.uri).join(", ")}; list them with skills/list, read them with resources/read.`
    : "");

const callerOf = (auth: AuthInfo | undefined): Caller | undefined =>
  auth && {
    clientId: auth.clientId,
    grantId: auth.extra?.grantId as string,
    address: auth.extra?.address as string,
    scopes: auth.scopes,
    waitUntil: auth.extra?.waitUntil as Caller["waitUntil"],
  };

/** SEP-2549 cache hints for 2026-07-28 results (the SDK never adds them to 2025-era answers). */
const listHint = { ttlMs: listTtlSeconds * 1000, cacheScope: "public" } as const;
export const cacheHints = {
  "server/discover": listHint,
  "tools/list": listHint,
  "resources/list": listHint,
  "resources/templates/list": listHint,
  "prompts/list": listHint,
  "resources/read": { ttlMs: resourceTtlSeconds * 1000, cacheScope: "public" },
} as const;

/**
 * What a server is made of. None of it changes during a deploy, so the handler builds it once (each resource's JSON
 * text, the tools/list answer, each prompt's argument schema) and then a server per request from it.
 */
/** What a tool needs to ask the person first (2026-07-28): the signed state between rounds, and their decisions. */
export interface Confirmations {
  state: StateCodec;
  decisions: FormDecisions;
}

export interface McpServerParts {
  prebuilt: PrebuiltResources;
  resources: (ResourceDefinition & { text: string })[];
  prompts: (PromptDefinition & { argsSchema: z.ZodObject<PromptDefinition["arguments"]> | undefined })[];
  tools: Map<string, Tool>;
  listed: ToolDefinition[];
  /**
   * Signs and verifies the state between 2026-07-28 rounds, and keeps the person's decision on each form; without them no
   * tool asks the client for anything.
   */
  confirmations?: Confirmations;
  /** The skills (skills.ts), loaded once; without them no skill is served. */
  skills?: SkillCatalog;
}

export const mcpServerParts = (
  prebuilt: PrebuiltResources,
  tools: Tool[],
  confirmations?: Confirmations,
  skills?: SkillCatalog,
): McpServerParts => ({
  prebuilt,
  confirmations,
  skills,
  resources: resourceDefinitions(prebuilt).map((r) => ({ ...r, text: jsonBody(r.value) })),
  prompts: promptDefinitions(prebuilt).map((p) => ({
    ...p,
    argsSchema: Object.keys(p.arguments).length > 0 ? z.object(p.arguments) : undefined,
  })),
  tools: new Map(tools.map((t) => [t.name, t])),
  listed: tools.map(toolDefinition),
});

/**
 * The MCP server for one request of one era (the transport is stateless, so nothing outlives the request). Resources and
 * prompts go through the SDK's registries; tools are served from our own table, because the brief tool validates with
 * the brief pipeline (every offending field named in one isError result) rather than the SDK's generic argument check.
 * What 2026-07-28 adds to each answer (`resultType`, `serverInfo` in `_meta`, the cache hints) the SDK adds.
 */
export function mcpServerFrom(
  { prebuilt, resources, prompts, tools, listed, confirmations, skills }: McpServerParts,
  era: Era = "legacy",
): McpServer {
  const server = new McpServer(serverInfo(prebuilt), {
    capabilities: { logging: {} },
    instructions: serverInstructions(prebuilt, skills),
    cacheHints,
    // Every echoed requestState is checked before a handler runs: a state no key signed, expired, or minted for another
    // client is answered -32602 "Invalid or expired requestState".
    ...(confirmations ? { requestState: { verify: confirmations.state.verify } } : {}),
    // The shim would push elicitation/create down a 2025-era response stream and wait for the answer, which a stateless
    // deployment delivers to another instance: it could only time out. No tool asks a 2025-era client (docs/decisions.md).
    inputRequired: { legacyShim: false },
  });

  for (const r of resources) {
    const contents = [{ uri: r.uri, mimeType: r.mimeType, text: r.text }];
    server.registerResource(r.name, r.uri, { title: r.title, description: r.description, mimeType: r.mimeType }, async () => ({
      contents,
    }));
  }

  for (const p of prompts) {
    const messages = (args: Record<string, string | undefined>) => ({
      description: p.description,
      messages: [{ role: "user" as const, content: { type: "text" as const, text: p.text(args) } }],
    });
    if (p.argsSchema) server.registerPrompt(p.name, { title: p.title, description: p.description, argsSchema: p.argsSchema }, messages);
    else server.registerPrompt(p.name, { title: p.title, description: p.description }, () => messages({}));
  }

  // The skills' resource template and methods, and `capabilities.extensions["io.modelcontextprotocol/skills"]`: in both
  // eras, whose capabilities both have `extensions` (docs/decisions.md, "Skills over MCP").
  skills?.attach(server);

  // Every list is fixed for the life of a deploy. Said last: the SDK declares listChanged for what it registers (the
  // skills' template too) unless it was already declared.
  server.server.registerCapabilities({
    tools: { listChanged: false },
    resources: { listChanged: false },
    prompts: { listChanged: false },
  });
  server.server.setRequestHandler("tools/list", () => ({ tools: listed }));
  server.server.setRequestHandler("tools/call", async (request, ctx) => {
    const tool = tools.get(request.params.name);
    if (!tool) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool ${request.params.name}; tools/list names: ${[...tools.keys()].join(", ")}.`,
      );
    }
    return tool.run(request.params.arguments ?? {}, {
      caller: callerOf(ctx.http?.authInfo),
      era,
      // The request's own `_meta` declares them (the SDK's typings leave the envelope's members out).
      clientCapabilities:
        era === "modern"
          ? ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
          : undefined,
      rounds:
        era === "modern" && confirmations
          ? {
              inputResponses: ctx.mcpReq.inputResponses,
              state: ctx.mcpReq.requestState(),
              mint: (payload) => confirmations.state.mint(payload, ctx),
              decide: (form, decision) =>
                confirmations.decisions.decide((ctx.http?.authInfo?.extra?.grantId as string | undefined) ?? "", form, decision),
            }
          : undefined,
    });
  });
  return server;
}

/** A server built from nothing: the build's listing for the server card, and the bench's bare SDK baseline. */
export const createMcpServer = (prebuilt: PrebuiltResources, tools: Tool[], era: Era = "legacy"): McpServer =>
  mcpServerFrom(mcpServerParts(prebuilt, tools), era);
