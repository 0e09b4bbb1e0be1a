import { AgentCard, type Message, type Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { ContentTypeNotSupportedError } from "@a2a-js/sdk/errors";
import { beforeAll, describe, expect, it } from "vitest";
import { readSkills } from "../../src/a2a/skills.ts";
import { a2aClient, bindings, brief, dataOf, factory, isTask, message, textOf } from "../support/a2a-client.ts";
import { freshBrief } from "../support/briefs.ts";
import { fileDeployment } from "../support/deployment.ts";

/**
 * The agent in-process over each binding, with the SDK's client built from the agent card and told to use one
 * transport (JSON-RPC at /a2a/v1, HTTP+JSON at /a2a/v1/rest), each client from an address of its own: the read skills,
 * keyword routing, A2A 0.3, the brief's refusals, dry run and input-required flow down to the one e-mail.
 * tests/doors/a2a-tasks.test.ts covers ListTasks; tests/doors/a2a-rest.test.ts the HTTP+JSON binding's raw answers;
 * tests/runtime/a2a.test.ts files one brief through the local runtime and reads it back over the other binding.
 */
const { d, clock } = fileDeployment("local", { clock: true });

const rest = async (skill: string) => (await d.api(`/api/v1/${skill}`)).json();
const sentFor = (leadId: string) => d.postmark.sent.filter((m) => (m.body.Metadata as { lead_id: string }).lead_id === leadId);

describe.each(bindings)("over %s", (_, binding) => {
  const clientFor = (token?: string): Promise<Client> => a2aClient(d.baseUrl, { binding, token, fetchImpl: d.fetchFrom() });
  let anonymous: Client;
  beforeAll(async () => {
    anonymous = await clientFor();
  });

  it("talks through the card's interface of that binding, in 1.0", () => {
    expect(anonymous.transport.protocolName).toBe(binding);
    expect(anonymous.protocolVersion).toBe("1.0");
  });

  it.each(readSkills.map((s) => s.id))("answers the %s skill anonymously with the REST JSON and a short text", async (skill) => {
    const result = await anonymous.sendMessage(message([{ data: { skill } }]));
    expect(isTask(result)).toBe(false);
    const { parts } = result as Message;
    expect(dataOf(parts)).toEqual(await rest(skill));
    expect(textOf(parts).length).toBeLessThan(200);
  });

  it("routes free text by keywords", async () => {
    const result = (await anonymous.sendMessage(message([{ text: "What do your offers cost?" }]))) as Message;
    expect(dataOf(result.parts)).toEqual(await rest("offers"));
  });

  it("refuses a file part with A2A's own error, which the SDK's client knows by its type", async () => {
    const refused = anonymous.sendMessage(message([{ url: "https://files.example/brief.pdf", mediaType: "application/pdf" }]));
    await expect(refused).rejects.toBeInstanceOf(ContentTypeNotSupportedError);
    await expect(refused).rejects.toThrow(/text parts and data parts/);
  });

  it("refuses a brief without a token (401) and with a token lacking svc:brief (403)", async () => {
    await expect(anonymous.sendMessage(brief(freshBrief()))).rejects.toThrow(/No access token/);
    const readOnly = await clientFor(await d.token("svc:read"));
    await expect(readOnly.sendMessage(brief(freshBrief()))).rejects.toThrow(/svc:brief/);
  });

  it("cancels a task waiting for input only with svc:brief, as every write: 403 with svc:read of the same grant", async () => {
    const clientId = `client-${crypto.randomUUID()}`;
    const writer = await clientFor(await d.token("svc:brief", clientId));
    const waiting = (await writer.sendMessage(brief({ full_name: freshBrief().full_name }))) as Task;
    expect(waiting.status?.state).toBe(6); // TASK_STATE_INPUT_REQUIRED
    const reader = await clientFor(await d.token("svc:read", clientId));
    await expect(reader.cancelTask({ id: waiting.id, tenant: "", metadata: undefined })).rejects.toThrow(/svc:brief/);
    expect((await writer.getTask({ id: waiting.id, historyLength: 0, tenant: "" })).status?.state).toBe(6);
    expect((await writer.cancelTask({ id: waiting.id, tenant: "", metadata: undefined })).status?.state).toBe(5); // TASK_STATE_CANCELED
  });

  it("validates a dry run and files nothing", async () => {
    const client = await clientFor(await d.token("svc:brief"));
    await d.settle();
    const before = { leads: (await d.leads.list(10_000)).length, attempts: d.postmark.attempts };
    const task = (await client.sendMessage(brief({ ...freshBrief(), dry_run: true }))) as Task;
    expect(task.status?.state).toBe(3); // TASK_STATE_COMPLETED
    expect(dataOf(task.artifacts[0]!.parts)).toMatchObject({ dry_run: true, valid: true });
    await d.settle();
    expect((await d.leads.list(10_000)).length).toBe(before.leads);
    expect(d.postmark.attempts).toBe(before.attempts);
  });

  it("asks for the missing fields, files the brief once they come (one e-mail), and GetTask finds it later for its client only", async () => {
    const token = await d.token("svc:brief");
    const client = await clientFor(token);
    const fields = freshBrief();
    const first = (await client.sendMessage(brief({ full_name: fields.full_name }))) as Task;
    expect(first.status?.state).toBe(6); // TASK_STATE_INPUT_REQUIRED
    expect((dataOf(first.status!.message!.parts) as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual([
      "/company_name",
      "/work_email",
    ]);
    const done = (await client.sendMessage(brief({ company_name: fields.company_name, work_email: fields.work_email }, first.id))) as Task;
    expect(done.status?.state).toBe(3);
    const receipt = dataOf(done.artifacts[0]!.parts) as { lead_id: string };
    expect(receipt.lead_id).toMatch(/^lead_/);
    await d.settle();
    expect(sentFor(receipt.lead_id)).toHaveLength(1);

    // A new client with the same token (the same OAuth client) finds it; an anonymous one does not.
    const again = await (await clientFor(token)).getTask({ tenant: "", id: first.id });
    expect(again.status?.state).toBe(3);
    expect(dataOf(again.artifacts[0]!.parts)).toEqual(receipt);
    await expect(anonymous.getTask({ tenant: "", id: first.id })).rejects.toThrow(/not found/i);
    await d.settle();
    expect(sentFor(receipt.lead_id)).toHaveLength(1);
  });
});

describe("A2A 0.3", () => {
  it("is served to the SDK's client in its compatibility mode, from the card's 0.3 interface", async () => {
    const fetchImpl = d.fetchFrom();
    const card = (await (await fetchImpl(`${d.baseUrl}/.well-known/agent-card.json`)).json()) as {
      supportedInterfaces: { protocolVersion: string }[];
    };
    card.supportedInterfaces = card.supportedInterfaces.filter((i) => i.protocolVersion === "0.3");
    const legacy = await factory({ fetchImpl, legacy: true }).createFromAgentCard(AgentCard.fromJSON(card));
    expect(legacy.protocolVersion).toBe("0.3");
    const result = (await legacy.sendMessage(message([{ text: "show me case studies" }]))) as Message;
    expect(dataOf(result.parts)).toEqual(await rest("case-studies"));
  });
});
