import {
  CLIENT_CAPABILITIES_META_KEY,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type AuthInfo,
  type ClientCapabilities,
  type GetPromptResult,
  type HandlerResultTypeMap,
  type Implementation,
  type ReadResourceCallback,
  type RequestTypeMap,
  type ServerContext,
  type ServerOptions,
} from "@modelcontextprotocol/server";
import type { SkillCatalog } from "@modelcontextprotocol/server/ext/skills";
import { z } from "zod";
import { jsonBody } from "../resources/json.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { bookingOfferedIn, bookingToolNames } from "../booking/names.ts";
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
  (bookingOfferedIn(prebuilt)
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

/** What a tool needs to ask the person first (2026-07-28): the signed state between rounds, and their decisions. */
export interface Confirmations {
  state: StateCodec;
  decisions: FormDecisions;
}

type RequestHandler<M extends "tools/list" | "tools/call"> = (
  request: RequestTypeMap[M],
  ctx: ServerContext,
) => HandlerResultTypeMap[M] | Promise<HandlerResultTypeMap[M]>;

/** A resource as the SDK registers it: its metadata, and a read answering the JSON text made once. */
interface ResourceRegistration {
  name: string;
  uri: string;
  metadata: { title: string; description: string; mimeType: string };
  read: ReadResourceCallback;
}

/** A prompt as the SDK registers it: its metadata and argument schema, and the messages it expands to. */
interface PromptRegistration {
  name: string;
  metadata: { title: string; description: string };
  argsSchema: z.ZodObject<PromptDefinition["arguments"]> | undefined;
  messages: (args: Record<string, string | undefined>) => GetPromptResult;
}

/**
 * What a server is made of. None of it changes during a deploy, so the handler builds it once (each resource's JSON
 * text, the tools/list answer, each prompt's argument schema, the server's identity and options, the tools/call handler
 * of each era) and then a server per request from it.
 */
export interface McpServerParts {
  prebuilt: PrebuiltResources;
  tools: Map<string, Tool>;
  listed: ToolDefinition[];
  /**
   * Signs and verifies the state between 2026-07-28 rounds, and keeps the person's decision on each form; without them no
   * tool asks the client for anything.
   */
  confirmations?: Confirmations;
  /** The skills (skills.ts), loaded once; without them no skill is served. */
  skills?: SkillCatalog;
  info: Implementation;
  options: ServerOptions;
  resources: ResourceRegistration[];
  prompts: PromptRegistration[];
  listTools: RequestHandler<"tools/list">;
  callTool: Record<Era, RequestHandler<"tools/call">>;
}

/** Every list is fixed for the life of a deploy. */
const fixedLists = { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } } as const;

export function mcpServerParts(
  prebuilt: PrebuiltResources,
  tools: Tool[],
  confirmations?: Confirmations,
  skills?: SkillCatalog,
): McpServerParts {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listed = tools.map(toolDefinition);
  return {
    prebuilt,
    confirmations,
    skills,
    tools: byName,
    listed,
    info: serverInfo(prebuilt),
    options: {
      capabilities: { logging: {} },
      instructions: serverInstructions(prebuilt, skills),
      cacheHints,
      // Every echoed requestState is checked before a handler runs: a state no key signed, expired, or minted for another
      // client is answered -32602 "Invalid or expired requestState".
      ...(confirmations ? { requestState: { verify: confirmations.state.verify } } : {}),
      // The shim would push elicitation/create down a 2025-era response stream and wait for the answer, which a stateless
      // deployment delivers to another instance: it could only time out. No tool asks a 2025-era client (docs/decisions.md).
      inputRequired: { legacyShim: false },
    },
    resources: resourceDefinitions(prebuilt).map(resourceRegistration),
    prompts: promptDefinitions(prebuilt).map(promptRegistration),
    listTools: () => ({ tools: listed }),
    callTool: { legacy: toolCaller(byName, "legacy", confirmations), modern: toolCaller(byName, "modern", confirmations) },
  };
}

function resourceRegistration({ name, uri, title, description, mimeType, value }: ResourceDefinition): ResourceRegistration {
  const text = jsonBody(value);
  // A new answer for every read: the SDK adds what the era wants (2026-07-28's resultType and hints) to the answer.
  return { name, uri, metadata: { title, description, mimeType }, read: async () => ({ contents: [{ uri, mimeType, text }] }) };
}

function promptRegistration(p: PromptDefinition): PromptRegistration {
  return {
    name: p.name,
    metadata: { title: p.title, description: p.description },
    argsSchema: Object.keys(p.arguments).length > 0 ? z.object(p.arguments) : undefined,
    messages: (args) => ({ description: p.description, messages: [{ role: "user", content: { type: "text", text: p.text(args) } }] }),
  };
}

/**
 * tools/call for one era, from our own table, because the brief tool validates with the brief pipeline (every
 * offending field named in one isError result) rather than the SDK's generic argument check. Whatever is the request's
 * own (who calls, what the client declared, the rounds of a form) comes from its context, never from the server.
 */
function toolCaller(tools: Map<string, Tool>, era: Era, confirmations: Confirmations | undefined): RequestHandler<"tools/call"> {
  return async (request, ctx) => {
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
  };
}

/**
 * Methods whose answers never involve the skills. Their servers go without: attaching the extension costs several times
 * the rest of a server, most of it in garbage collection, since the catalog keeps a WeakRef to every server it serves.
 */
const withoutSkills = new Set(["tools/list", "tools/call", "prompts/list", "prompts/get", "ping"]);

/**
 * The MCP server for one request of one era (the transport is stateless, so nothing outlives the request), registered
 * from the parts: resources and prompts through the SDK's registries, tools from our own table. What 2026-07-28 adds to
 * each answer (`resultType`, `serverInfo` in `_meta`, the cache hints) the SDK adds. `method` is the request's (none
 * for a batch).
 */
export function mcpServerFrom(parts: McpServerParts, era: Era = "legacy", method?: string): McpServer {
  const server = new McpServer(parts.info, parts.options);
  for (const r of parts.resources) server.registerResource(r.name, r.uri, r.metadata, r.read);
  for (const p of parts.prompts) {
    if (p.argsSchema) server.registerPrompt(p.name, { ...p.metadata, argsSchema: p.argsSchema }, p.messages);
    else server.registerPrompt(p.name, p.metadata, () => p.messages({}));
  }
  // The skills' resource template and methods, and `capabilities.extensions["io.modelcontextprotocol/skills"]`: in both
  // eras, whose capabilities both have `extensions` (docs/decisions.md, "The Skills extension, declared in both eras").
  if (method === undefined || !withoutSkills.has(method)) parts.skills?.attach(server);
  // Said last: the SDK declares listChanged for what it registers (the skills' template too) unless it was already declared.
  server.server.registerCapabilities(fixedLists);
  server.server.setRequestHandler("tools/list", parts.listTools);
  server.server.setRequestHandler("tools/call", parts.callTool[era]);
  return server;
}

/** A server built from nothing: the bench's bare SDK baseline. */
export const createMcpServer = (prebuilt: PrebuiltResources, tools: Tool[], era: Era = "legacy"): McpServer =>
  mcpServerFrom(mcpServerParts(prebuilt, tools), era);
