import {
  Client,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type ClientOptions,
  type ElicitRequest,
  type ElicitResult,
  type StreamableHTTPClientTransportOptions,
} from "@modelcontextprotocol/client";
import { expect } from "vitest";

/**
 * The two ways the v2 SDK's client connects to /mcp: pinned to 2026-07-28 (`server/discover`, the `_meta` envelope on
 * every request, no fallback) or in its default legacy mode (the 2025 `initialize` handshake, byte for byte as 1.x).
 */
export const eras = [
  { era: "modern", mode: "pinned to 2026-07-28", options: { versionNegotiation: { mode: { pin: "2026-07-28" } } } },
  { era: "legacy", mode: "in legacy mode", options: {} },
] as const satisfies { era: "modern" | "legacy"; mode: string; options: ClientOptions }[];

export type ClientEra = (typeof eras)[number];

export async function connectMcp(endpoint: string, { options }: ClientEra, transport: StreamableHTTPClientTransportOptions = {}) {
  const client = new Client({ name: "frontdoor-test", version: "1.0.0" }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), transport));
  return client;
}

/**
 * A client whose host shows forms (it declares form elicitation): each form the server asks for is kept in `asked`, and
 * the person's answer is whatever `person` says, given the form.
 */
export async function connectShowingForms(
  endpoint: string,
  { options }: ClientEra,
  transport: StreamableHTTPClientTransportOptions,
  person: (form: ElicitRequest["params"]) => ElicitResult,
) {
  const client = new Client(
    { name: "frontdoor-test-forms", version: "1.0.0" },
    { ...options, capabilities: { elicitation: { form: {} } } },
  );
  const asked: ElicitRequest["params"][] = [];
  client.setRequestHandler("elicitation/create", (request) => {
    asked.push(request.params);
    return person(request.params);
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), transport));
  return { client, asked };
}

export const text = (result: CallToolResult) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

const readToolPaths: [string, string][] = [
  ["get_company", "/api/v1/company"],
  ["get_offers", "/api/v1/offers"],
  ["list_case_studies", "/api/v1/case-studies"],
  ["list_pages", "/api/v1/pages"],
  ["get_contact", "/api/v1/contact"],
];

/**
 * Everything a client can read, read through the client and held to what the REST API serves: every tool listed and
 * every read tool called, every resource read, every prompt got. `rest` fetches an absolute URL's JSON.
 */
export async function expectReadsEverything(client: Client, base: string, rest: (url: string) => Promise<unknown>) {
  expect(client.getServerVersion()).toMatchObject({ name: "kestrel-studio-facts", version: "1.0.0" });
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual([
    "get_company",
    "get_offers",
    "list_case_studies",
    "get_case_study",
    "list_pages",
    "get_contact",
    "submit_project_brief",
    "list_free_times",
    "book_intro_call",
    "cancel_intro_call",
  ]);
  const writes = ["submit_project_brief", "book_intro_call", "cancel_intro_call"];
  for (const tool of tools) {
    expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: !writes.includes(tool.name) });
    expect(tool.annotations?.destructiveHint, tool.name).toBe(tool.name === "cancel_intro_call");
    expect(tool.outputSchema, tool.name).toBeDefined();
  }

  for (const [name, path] of readToolPaths) {
    const result = (await client.callTool({ name, arguments: {} })) as CallToolResult;
    expect(result.isError, name).toBeFalsy();
    expect(result.structuredContent, name).toEqual(await rest(`${base}${path}`));
    expect(text(result), name).toContain('"');
  }
  const list = (await rest(`${base}/api/v1/case-studies`)) as { case_studies: { id: string }[] };
  for (const { id } of list.case_studies) {
    const result = (await client.callTool({ name: "get_case_study", arguments: { id } })) as CallToolResult;
    expect(result.structuredContent, id).toEqual(await rest(`${base}/api/v1/case-studies/${id}`));
  }
  const missing = (await client.callTool({ name: "get_case_study", arguments: { id: "nope" } })) as CallToolResult;
  expect(missing.isError).toBe(true);
  expect(text(missing)).toContain(list.case_studies[0]!.id);

  // The REST resources by their https URLs, then each skill's SKILL.md (tests/doors/mcp-skills.test.ts holds every file
  // of every skill to what the site serves).
  const { resources } = await client.listResources();
  const skills = resources.filter((r) => r.uri.startsWith("skill://"));
  const json = resources.filter((r) => !r.uri.startsWith("skill://"));
  expect(json.map((r) => r.name)).toEqual(expect.arrayContaining(["index", "company", "offers", "case-studies", "pages", "contact"]));
  for (const r of json) {
    const read = await client.readResource({ uri: r.uri });
    const content = read.contents[0] as { uri: string; mimeType: string; text: string };
    expect(content.mimeType, r.uri).toBe("application/json");
    expect(JSON.parse(content.text), r.uri).toEqual(await rest(r.uri));
  }
  expect(skills.map((r) => r.uri)).toEqual(["a2a", "mcp", "rest-api"].map((s) => `skill://kestrel-studio-${s}/SKILL.md`));
  for (const r of skills) {
    expect(r, r.uri).toMatchObject({ name: r.uri.split("/")[2], mimeType: "text/markdown", description: expect.any(String) });
    const content = (await client.readResource({ uri: r.uri })).contents[0] as { mimeType: string; text: string };
    expect(content, r.uri).toMatchObject({ mimeType: "text/markdown", text: expect.stringMatching(new RegExp(`^---\nname: ${r.name}\n`)) });
  }
  // The skills' files are resources of one template: every other resource is listed by its URI.
  expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
    { name: "io.modelcontextprotocol/skills", uriTemplate: "skill://{+path}" },
  ]);

  const { prompts } = await client.listPrompts();
  expect(prompts.map((p) => p.name)).toEqual(["prepare_project_brief", "book_intro_call", "summarize_studio"]);
  const brief = await client.getPrompt({ name: "prepare_project_brief", arguments: { project: "a clinic website" } });
  const briefText = (brief.messages[0]!.content as { text: string }).text;
  expect(briefText).toContain("a clinic website");
  expect(briefText).toMatch(/confirm/);
  expect(briefText).toContain("submit_project_brief");
  const booking = await client.getPrompt({ name: "book_intro_call", arguments: { lead_id: "lead_0123456789abcdefghjk" } });
  const bookingText = (booking.messages[0]!.content as { text: string }).text;
  expect(bookingText).toContain("lead_0123456789abcdefghjk");
  expect(bookingText).toMatch(/list_free_times[\s\S]*confirm[\s\S]*book_intro_call/);
  const summary = await client.getPrompt({ name: "summarize_studio" });
  expect((summary.messages[0]!.content as { text: string }).text).toContain("get_company");
}
