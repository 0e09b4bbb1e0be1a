import { TaskState, type Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { beforeAll, describe, expect, it } from "vitest";
import { a2aClient, bindings, brief, listing } from "../support/a2a-client.ts";
import { freshBrief } from "../support/briefs.ts";
import { json } from "../support/calls.ts";
import { fileDeployment } from "../support/deployment.ts";

/**
 * ListTasks, GetTask and CancelTask scoped to the caller, in-process over each binding with the SDK's client: two OAuth
 * clients each file briefs, and neither sees the other's. The store's paging, filters and expiry in detail are in
 * tests/store/a2a-task-store.test.ts, the raw JSON-RPC refusals in tests/unit/a2a.test.ts; tests/runtime/a2a.test.ts
 * reads one client's task back through the local runtime.
 */
const { d, clock } = fileDeployment("local", { clock: true });
/** A position anyone can spell: base64url of `[statusTimestampMs, taskId]`, signed by no one. */
const forged = Buffer.from(JSON.stringify([9_999_999_999_999, "zzzz"])).toString("base64url");

describe.each(bindings)("tasks are the caller's own, over %s", (_, binding) => {
  const clientFor = (token?: string) => a2aClient(d.baseUrl, { binding, token, fetchImpl: d.fetchFrom() });
  let first: Client;
  let second: Client;
  let firstTasks: Task[];
  let secondTask: Task;
  beforeAll(async () => {
    first = await clientFor(await d.token("svc:brief"));
    second = await clientFor(await d.token("svc:brief"));
    // The first client files a dry run, then (a second later, so the order is certain) a brief that waits for input;
    // the second client files a real brief.
    const dryRun = (await first.sendMessage(brief({ ...freshBrief(), dry_run: true }))) as Task;
    clock.advance(1_000);
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

  it("asks an anonymous ListTasks for a token, and refuses a page token it did not issue or issued to another grant", async () => {
    await expect((await clientFor()).listTasks(listing())).rejects.toThrow(/access token/i);
    const refusal = { name: "RequestMalformedError", message: expect.stringMatching(/pageToken/) };
    for (const pageToken of ["bm90LWEtY3Vyc29y", forged])
      await expect(first.listTasks(listing({ pageToken }))).rejects.toMatchObject(refusal);
    const { nextPageToken } = await first.listTasks(listing({ pageSize: 1 }));
    expect(nextPageToken).not.toBe("");
    await expect(second.listTasks(listing({ pageToken: nextPageToken }))).rejects.toMatchObject(refusal);
  });
});

it("answers a forged page token -32602 on JSON-RPC, 400 INVALID_ARGUMENT on HTTP+JSON", async () => {
  const auth = { authorization: `Bearer ${await d.token("svc:brief")}`, "a2a-version": "1.0" };
  const res = await d.a2a(json({ jsonrpc: "2.0", id: 7, method: "ListTasks", params: { pageToken: forged } }, auth));
  expect(res.status).toBe(200);
  expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32602);
  const rest = await d.a2a({ headers: auth }, d.nextIp(), `/a2a/v1/rest/tasks?pageToken=${forged}`);
  expect(rest.status).toBe(400);
  expect(await rest.json()).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
});
