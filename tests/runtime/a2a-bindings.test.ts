import { SendMessageRequest, type Message, type Task } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
  type TransportFactory,
} from "@a2a-js/sdk/client";
import { Redis } from "@upstash/redis";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { readSkills } from "../../src/a2a/skills.ts";
import { freshBrief } from "../support/briefs.ts";
import { clientCredentialsToken } from "../support/oauth-client.ts";
import type { SentMessage } from "../support/postmark-standin.ts";

/**
 * Both bindings of the agent through the local runtime, with the SDK's client built from the agent card URL and told
 * to use one transport: JSON-RPC at /a2a/v1, HTTP+JSON at /a2a/v1/rest. The same skills, brief and refusals on each.
 */
const base = inject("baseUrl");
const postmark = inject("postmark");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });

type FetchImpl = typeof fetch;
const withToken = (token?: string): FetchImpl =>
  token
    ? (input, init) =>
        fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Authorization: `Bearer ${token}` } })
    : fetch;

const bindings: [string, "JSONRPC" | "HTTP+JSON", (fetchImpl: FetchImpl) => TransportFactory][] = [
  ["JSON-RPC", "JSONRPC", (fetchImpl) => new JsonRpcTransportFactory({ fetchImpl })],
  ["HTTP+JSON", "HTTP+JSON", (fetchImpl) => new RestTransportFactory({ fetchImpl })],
];

const message = (parts: unknown[], metadata?: Record<string, unknown>, taskId?: string) =>
  SendMessageRequest.fromJSON({ message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts, metadata, taskId } });
const dataOf = (parts: Message["parts"]) => parts.find((p) => p.content?.$case === "data")?.content?.value;
const textOf = (parts: Message["parts"]) => parts.find((p) => p.content?.$case === "text")?.content?.value as string;
const isTask = (r: Message | Task): r is Task => "status" in r;
const sentFor = async (leadId: string) =>
  ((await (await fetch(`${postmark}/_standin/messages`)).json()) as { sent: SentMessage[] }).sent.filter(
    (m) => (m.body.Metadata as { lead_id: string }).lead_id === leadId,
  );

let token: string;
let readOnlyToken: string;
beforeAll(async () => {
  token = (await clientCredentialsToken(base, "svc:brief", `${base}/a2a/v1`)).token;
  readOnlyToken = (await clientCredentialsToken(base, "svc:read")).token;
});

describe.each(bindings)("over %s", (_, protocolBinding, transport) => {
  const clientFor = (bearer?: string): Promise<Client> =>
    new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [transport(withToken(bearer))],
        preferredTransports: [protocolBinding],
      }),
    ).createFromUrl(base);
  let anonymous: Client;
  beforeAll(async () => {
    anonymous = await clientFor();
  });

  it("talks through the card's interface of that binding", async () => {
    expect(anonymous.transport.protocolName).toBe(protocolBinding);
    expect(anonymous.protocolVersion).toBe("1.0");
  });

  it.each(readSkills.map((s) => s.id))("answers the %s skill anonymously with the REST JSON", async (skill) => {
    const result = await anonymous.sendMessage(message([{ data: { skill } }]));
    expect(isTask(result)).toBe(false);
    const { parts } = result as Message;
    expect(dataOf(parts)).toEqual(await (await fetch(`${base}/api/v1/${skill}`)).json());
    expect(textOf(parts).length).toBeLessThan(200);
  });

  it("refuses a brief without a token (401) and with a token lacking svc:brief (403)", async () => {
    await expect(anonymous.sendMessage(message([{ data: freshBrief() }]))).rejects.toThrow(/No access token/);
    const readOnly = await clientFor(readOnlyToken);
    await expect(readOnly.sendMessage(message([{ data: freshBrief() }]))).rejects.toThrow(/svc:brief/);
  });

  it("validates a dry run and files nothing", async () => {
    const client = await clientFor(token);
    const leads = await store.zcard("leads");
    const task = (await client.sendMessage(
      message([{ data: { ...freshBrief(), dry_run: true } }], { skillId: "svc-project-brief" }),
    )) as Task;
    expect(task.status?.state).toBe(3); // TASK_STATE_COMPLETED
    expect(dataOf(task.artifacts[0]!.parts)).toMatchObject({ dry_run: true, valid: true });
    expect(await store.zcard("leads")).toBe(leads);
  });

  it("asks for the missing fields, files the brief once they come (one e-mail), and GetTask finds it for its client only", async () => {
    const client = await clientFor(token);
    const brief = freshBrief();
    const first = (await client.sendMessage(message([{ data: { full_name: brief.full_name } }], { skillId: "svc-project-brief" }))) as Task;
    expect(first.status?.state).toBe(6); // TASK_STATE_INPUT_REQUIRED
    expect((dataOf(first.status!.message!.parts) as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual([
      "/company_name",
      "/work_email",
    ]);
    const done = (await client.sendMessage(
      message([{ data: { company_name: brief.company_name, work_email: brief.work_email } }], undefined, first.id),
    )) as Task;
    expect(done.status?.state).toBe(3);
    const receipt = dataOf(done.artifacts[0]!.parts) as { lead_id: string };
    expect(receipt.lead_id).toMatch(/^lead_/);
    await expect.poll(() => sentFor(receipt.lead_id).then((m) => m.length), { timeout: 10_000 }).toBe(1);

    const again = await (await clientFor(token)).getTask({ tenant: "", id: first.id });
    expect(dataOf(again.artifacts[0]!.parts)).toEqual(receipt);
    await expect(anonymous.getTask({ tenant: "", id: first.id })).rejects.toThrow(/not found/i);
  });
});

describe("the HTTP+JSON binding's own answers", () => {
  it("answers application/a2a+json, and an unknown route with a google.rpc.Status", async () => {
    const read = await fetch(`${base}/a2a/v1/rest/message:send`, {
      method: "POST",
      headers: { "Content-Type": "application/a2a+json", "A2A-Version": "1.0" },
      body: JSON.stringify({ message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "offers" }] } }),
    });
    expect(read.status).toBe(200);
    expect(read.headers.get("content-type")).toMatch(/^application\/a2a\+json/);
    const unknown = await fetch(`${base}/a2a/v1/rest/teleport`, { headers: { "A2A-Version": "1.0" } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 404, status: "NOT_FOUND", details: [{ reason: "NOT_FOUND" }] } });
  });
});
