import { SendMessageRequest, TaskState, type ListTasksRequest, type Task } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
  type TransportFactory,
} from "@a2a-js/sdk/client";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { freshBrief } from "../support/briefs.ts";
import { clientCredentialsToken } from "../support/oauth-client.ts";

/**
 * ListTasks, GetTask and CancelTask scoped to the caller, through the local runtime with the SDK's client: two OAuth
 * clients each file briefs, and neither sees the other's. Once per binding the card offers (each entry builds the SDK's
 * transport factory for a fetch that carries the token).
 */
const base = inject("baseUrl");

const bindings: [string, "JSONRPC" | "HTTP+JSON", (fetchImpl: typeof fetch) => TransportFactory][] = [
  ["JSON-RPC", "JSONRPC", (fetchImpl) => new JsonRpcTransportFactory({ fetchImpl })],
  ["HTTP+JSON", "HTTP+JSON", (fetchImpl) => new RestTransportFactory({ fetchImpl })],
];

const withToken =
  (token?: string): typeof fetch =>
  (input, init) =>
    fetch(input, token ? { ...init, headers: { ...(init?.headers as Record<string, string>), Authorization: `Bearer ${token}` } } : init);
const listing = (fields: Partial<ListTasksRequest> = {}): ListTasksRequest => ({
  tenant: "",
  contextId: "",
  status: TaskState.TASK_STATE_UNSPECIFIED,
  pageToken: "",
  statusTimestampAfter: undefined,
  ...fields,
});
const brief = (fields: Record<string, unknown>) =>
  SendMessageRequest.fromJSON({
    message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ data: fields }], metadata: { skillId: "svc-project-brief" } },
  });

describe.each(bindings)("tasks are the caller's own, over %s", (_binding, protocolBinding, transport) => {
  const clientFor = (token?: string) =>
    new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [transport(withToken(token))],
        preferredTransports: [protocolBinding],
      }),
    ).createFromUrl(base);
  let first: Client;
  let second: Client;
  let firstTasks: Task[];
  let secondTask: Task;
  beforeAll(async () => {
    const resource = `${base}/a2a/v1`;
    first = await clientFor((await clientCredentialsToken(base, "svc:brief", resource)).token);
    second = await clientFor((await clientCredentialsToken(base, "svc:brief", resource)).token);
    // The first client files a dry run, then a brief that waits for input; the second a real brief.
    const dryRun = (await first.sendMessage(brief({ ...freshBrief(), dry_run: true }))) as Task;
    const waiting = (await first.sendMessage(brief({ full_name: "Ada Lovelace" }))) as Task;
    firstTasks = [waiting, dryRun];
    secondTask = (await second.sendMessage(brief(freshBrief()))) as Task;
    expect([dryRun.status?.state, waiting.status?.state, secondTask.status?.state]).toEqual([
      TaskState.TASK_STATE_COMPLETED,
      TaskState.TASK_STATE_INPUT_REQUIRED,
      TaskState.TASK_STATE_COMPLETED,
    ]);
  });

  it("lists each client's own tasks only, newest first", async () => {
    const listed = await first.listTasks(listing());
    expect(listed.tasks.map((t) => t.id)).toEqual(firstTasks.map((t) => t.id));
    expect(listed).toMatchObject({ nextPageToken: "", totalSize: 2 });
    expect((await second.listTasks(listing())).tasks.map((t) => t.id)).toEqual([secondTask.id]);
  });

  it("pages with nextPageToken, filters by status, and includes artifacts only when asked", async () => {
    const page1 = await first.listTasks(listing({ pageSize: 1 }));
    expect(page1.tasks.map((t) => t.id)).toEqual([firstTasks[0]!.id]);
    const page2 = await first.listTasks(listing({ pageSize: 1, pageToken: page1.nextPageToken }));
    expect(page2.tasks.map((t) => t.id)).toEqual([firstTasks[1]!.id]);
    expect(page2.nextPageToken).toBe("");
    expect(page2.tasks[0]!.artifacts).toEqual([]);

    const waiting = await first.listTasks(listing({ status: TaskState.TASK_STATE_INPUT_REQUIRED }));
    expect(waiting.tasks.map((t) => t.id)).toEqual([firstTasks[0]!.id]);
    const withArtifacts = await first.listTasks(listing({ status: TaskState.TASK_STATE_COMPLETED, includeArtifacts: true }));
    expect(withArtifacts.tasks[0]!.artifacts[0]!.name).toBe("dry-run");
  });

  it("answers another client's task as not found, for GetTask and CancelTask alike", async () => {
    for (const theirs of firstTasks) {
      await expect(second.getTask({ tenant: "", id: theirs.id })).rejects.toThrow(/not found/i);
      await expect(second.cancelTask({ tenant: "", id: theirs.id, metadata: undefined })).rejects.toThrow(/not found/i);
    }
    await expect(first.getTask({ tenant: "", id: secondTask.id })).rejects.toThrow(/not found/i);
    // The owner still has its waiting task, not canceled by the other's attempt.
    expect((await first.getTask({ tenant: "", id: firstTasks[0]!.id })).status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  });

  it("asks an anonymous ListTasks for a token, and refuses a page token it did not issue", async () => {
    await expect((await clientFor()).listTasks(listing())).rejects.toThrow(/access token/i);
    await expect(first.listTasks(listing({ pageToken: "bm90LWEtY3Vyc29y" }))).rejects.toThrow(/pageToken/);
  });
});
