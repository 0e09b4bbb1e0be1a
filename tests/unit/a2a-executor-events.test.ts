import { Role, SendMessageRequest, TaskState, type Task } from "@a2a-js/sdk";
import { RequestContext, ServerCallContext, type AgentExecutionEvent, type ExecutionEventBus } from "@a2a-js/sdk/server";
import { beforeAll, describe, expect, it } from "vitest";
import { AuthenticatedCaller } from "../../src/a2a/caller.ts";
import { createAgentExecutor } from "../../src/a2a/executor.ts";
import type { Lead } from "../../src/briefs/lead.ts";
import { briefSchema } from "../../src/briefs/schema.ts";
import type { BriefServices } from "../../src/operations/briefs.ts";
import { prebuiltResources, type PrebuiltResources } from "../../src/resources/prebuilt.ts";
import { buildSite } from "../../src/site/model.ts";
import { loadContentDir } from "../support/content.ts";

/**
 * The A2A executor on its own (src/a2a/executor.ts), without the HTTP gate that decides the route: what it publishes
 * on the SDK's event bus for a read, a brief filed, a brief waiting for input and a cancellation, and that it finishes
 * the bus each time (the SDK keeps the bus of a task waiting for input alive until then). tests/unit/a2a-executor.test.ts
 * drives the same through the handler.
 */
let prebuilt: PrebuiltResources;
beforeAll(async () => {
  prebuilt = prebuiltResources(buildSite(await loadContentDir("content"), "https://studio.example", {}));
});

const briefs = (): BriefServices => ({
  schema: briefSchema(["launch-site"]),
  studio: prebuilt.site.name,
  responseTime: prebuilt.site.response_time,
  file: async (brief) => ({ kind: "filed", lead: { id: "lead_1", received_at: "2026-12-02T00:00:00.000Z", brief } as Lead }),
  filedUnder: async () => null,
  checkKey: async () => {},
});

/** A bus that keeps what is published, and marks where it was finished. */
function recordingBus() {
  const seen: (AgentExecutionEvent | "finished")[] = [];
  const bus = { publish: (event: AgentExecutionEvent) => seen.push(event), finished: () => seen.push("finished") };
  return { seen, bus: bus as unknown as ExecutionEventBus };
}

const user = new AuthenticatedCaller({ clientId: "client-1", grantId: "grant-1", scopes: ["svc:brief"], address: "10.0.0.1" });
const contextOf = (data: Record<string, unknown>, metadata?: Record<string, unknown>, task?: Task) =>
  new RequestContext(
    SendMessageRequest.fromJSON({ message: { messageId: "m-1", contextId: "c-1", role: "ROLE_USER", parts: [{ data }], metadata } }),
    task?.id ?? "t-1",
    "c-1",
    new ServerCallContext({ user }),
    task,
  );
const run = async (context: RequestContext) => {
  const { seen, bus } = recordingBus();
  await createAgentExecutor({ prebuilt, briefs, booking: async () => undefined }).execute(context, bus);
  return seen;
};
const person = { full_name: "Ada Lovelace", company_name: "Analytical Engines", work_email: "ada@engines.example" };

describe("the executor's events, routed by the same rule as the gate's", () => {
  it("answers a read with one message in the request's context, then finishes", async () => {
    const seen = await run(contextOf({ skill: "company" }));
    expect(seen).toEqual([{ kind: "message", data: expect.objectContaining({ contextId: "c-1", role: Role.ROLE_AGENT }) }, "finished"]);
  });

  it("publishes a brief's task as submitted, its receipt whole in one last chunk, then completed, then finishes", async () => {
    const context = contextOf(person, { skillId: "svc-project-brief" });
    const seen = await run(context);
    expect(seen.map((e) => (e === "finished" ? e : e.kind))).toEqual(["task", "artifactUpdate", "statusUpdate", "finished"]);
    const [task, artifact, status] = seen as { data: any }[];
    expect(task!.data).toMatchObject({
      id: "t-1",
      contextId: "c-1",
      status: { state: TaskState.TASK_STATE_SUBMITTED },
      history: [context.userMessage],
      metadata: { skill: "svc-project-brief" },
    });
    expect(artifact!.data).toMatchObject({ taskId: "t-1", contextId: "c-1", append: false, lastChunk: true });
    expect(artifact!.data.artifact).toMatchObject({ name: "receipt", description: "", extensions: [] });
    expect(status!.data).toMatchObject({ taskId: "t-1", status: { state: TaskState.TASK_STATE_COMPLETED } });
  });

  it("finishes the bus of a brief left waiting for input, and of a cancellation", async () => {
    const waiting = await run(contextOf({ full_name: "Ada" }, { skillId: "svc-project-brief" }));
    expect(waiting.at(-2)).toMatchObject({ kind: "statusUpdate", data: { status: { state: TaskState.TASK_STATE_INPUT_REQUIRED } } });
    expect(waiting.at(-1)).toBe("finished");
    const { seen, bus } = recordingBus();
    await createAgentExecutor({ prebuilt, briefs, booking: async () => undefined }).cancelTask("t-1", bus);
    expect(seen).toEqual([
      {
        kind: "statusUpdate",
        data: expect.objectContaining({ taskId: "t-1", status: expect.objectContaining({ state: TaskState.TASK_STATE_CANCELED }) }),
      },
      "finished",
    ]);
  });
});
