import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { TaskState, type ListTasksRequest, type Task } from "@a2a-js/sdk";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalStore } from "../../scripts/local-store/store.ts";
import { AuthenticatedCaller } from "../../src/a2a/caller.ts";
import { maxIndexedTasks, taskLifetimeSeconds } from "../../src/a2a/constants.ts";
import { pageTokens } from "../../src/a2a/page-token.ts";
import { UpstashTaskStore } from "../../src/a2a/task-store.ts";
import { policies } from "../../src/limits/policies.ts";
import { realRedisAvailable, startRedisGateway } from "../support/upstash-gateway.ts";
import { storeFolder } from "../support/scratch.ts";

/**
 * The task store's ListTasks over the local store and real Redis, with an injected clock: each client sees only its
 * own tasks, newest status first, in pages whose cursors survive new tasks; filters, expiry, the index bound, page
 * tokens it did not issue or issued to another grant.
 */
const dir = await storeFolder("frontdoor-a2a-tasks-");
type Store = { url: string; token: string; close(): Promise<void> };
const stores: [string, () => Promise<Store>][] = [
  ["local store", () => startLocalStore({ token: "t", snapshotFile: join(dir, `${randomUUID()}.json`) })],
];
if (await realRedisAvailable()) stores.push(["real Redis", () => startRedisGateway(7)]);
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A call by the grant `grantId` (the owner of what it stores), or an anonymous one. */
const as = (grantId?: string) =>
  new ServerCallContext({
    user: grantId ? new AuthenticatedCaller({ clientId: "client-1", grantId, scopes: ["svc:brief"], address: "198.51.100.7" }) : undefined,
  });
const t0 = Date.parse("2026-11-23T10:00:00.000Z");
const tokens = pageTokens(async () => [crypto.getRandomValues(new Uint8Array(32))]);
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const at = (ms: number) => new Date(ms).toISOString();

function taskAt(ms: number, { state = TaskState.TASK_STATE_COMPLETED, contextId = randomUUID(), id = randomUUID() } = {}): Task {
  return {
    id,
    contextId,
    status: { state, message: undefined, timestamp: at(ms) },
    artifacts: [{ artifactId: "a", name: "receipt", description: "", parts: [], metadata: undefined, extensions: [] }],
    history: [],
    metadata: undefined,
  };
}
const request = (fields: Partial<ListTasksRequest> = {}): ListTasksRequest => ({
  tenant: "",
  contextId: "",
  status: TaskState.TASK_STATE_UNSPECIFIED,
  pageToken: "",
  statusTimestampAfter: undefined,
  pageSize: 50,
  ...fields,
});

describe.each(stores)("A2A tasks listed per client: %s", (_name, start) => {
  let store: Store;
  let redis: Redis;
  let now = t0;
  let tasks: UpstashTaskStore;
  beforeAll(async () => {
    store = await start();
    redis = new Redis({ url: store.url, token: store.token, enableTelemetry: false });
    tasks = new UpstashTaskStore(redis, tokens, { now: () => now });
  });
  afterAll(() => store.close());

  /** Every page of a listing, following nextPageToken. */
  async function allPages(client: string, fields: Partial<ListTasksRequest> = {}) {
    const pages: string[][] = [];
    let pageToken = "";
    do {
      const page = await tasks.list(request({ ...fields, pageToken }), as(client));
      pages.push(page.tasks.map((t) => t.id));
      pageToken = page.nextPageToken;
    } while (pageToken && pages.length < 50);
    return pages;
  }

  it("lists only the caller's tasks, newest status first, and nothing for an anonymous caller", async () => {
    const mine = [taskAt(t0 + 1), taskAt(t0 + 3), taskAt(t0 + 2)];
    const theirs = taskAt(t0 + 4);
    for (const task of mine) await tasks.save(task, as("owners-a"));
    await tasks.save(theirs, as("owners-b"));
    const listed = await tasks.list(request(), as("owners-a"));
    expect(listed.tasks.map((t) => t.id)).toEqual([mine[1]!.id, mine[2]!.id, mine[0]!.id]);
    expect(listed).toMatchObject({ nextPageToken: "", pageSize: 50, totalSize: 3 });
    expect((await tasks.list(request(), as("owners-b"))).tasks.map((t) => t.id)).toEqual([theirs.id]);
    expect(await tasks.list(request(), as())).toEqual({ tasks: [], nextPageToken: "", pageSize: 50, totalSize: 0 });
    expect(await tasks.load(theirs.id, as("owners-a"))).toBeUndefined();
  });

  it("keeps a client id that looks like another client's index key apart from it", async () => {
    await tasks.save(taskAt(t0, { state: TaskState.TASK_STATE_FAILED }), as("https://x.example/c"));
    const lookalike = `https://x.example/c:state:${TaskState.TASK_STATE_FAILED}`;
    expect((await tasks.list(request(), as(lookalike))).tasks).toEqual([]);
  });

  it("pages through every task exactly once, across equal timestamps, with a cursor new tasks do not move", async () => {
    const client = "pager";
    const saved = [1, 2, 3, 3, 3, 4, 5].map((ms) => taskAt(t0 + ms));
    for (const task of saved) await tasks.save(task, as(client));
    const newestFirst = [...saved].sort(
      (a, b) => Date.parse(b.status!.timestamp!) - Date.parse(a.status!.timestamp!) || (b.id < a.id ? -1 : 1),
    );

    const first = await tasks.list(request({ pageSize: 3 }), as(client));
    expect(first.tasks.map((t) => t.id)).toEqual(newestFirst.slice(0, 3).map((t) => t.id));
    expect(first).toMatchObject({ pageSize: 3, totalSize: 7 });
    expect(first.nextPageToken).not.toBe("");
    // Two newer tasks arrive between pages: the next page continues where the first stopped.
    for (const ms of [10, 11]) await tasks.save(taskAt(t0 + ms), as(client));
    const second = await tasks.list(request({ pageSize: 3, pageToken: first.nextPageToken }), as(client));
    expect(second.tasks.map((t) => t.id)).toEqual(newestFirst.slice(3, 6).map((t) => t.id));
    const third = await tasks.list(request({ pageSize: 3, pageToken: second.nextPageToken }), as(client));
    expect(third.tasks.map((t) => t.id)).toEqual([newestFirst[6]!.id]);
    expect(third.nextPageToken).toBe("");

    const pages = await allPages(client, { pageSize: 2 });
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 2, 1]);
    expect(new Set(pages.flat()).size).toBe(9);
  });

  it("leaves out artifacts unless asked, and filters by status, context and status time", async () => {
    const client = "filters";
    const context = randomUUID();
    const waiting = taskAt(t0 + 1, { state: TaskState.TASK_STATE_INPUT_REQUIRED, contextId: context });
    const other = taskAt(t0 + 2, { state: TaskState.TASK_STATE_INPUT_REQUIRED });
    const done = taskAt(t0 + 3, { contextId: context });
    for (const task of [waiting, other, done]) await tasks.save(task, as(client));

    const plain = await tasks.list(request(), as(client));
    expect(plain.tasks.every((t) => t.artifacts.length === 0)).toBe(true);
    const full = await tasks.list(request({ includeArtifacts: true }), as(client));
    expect(full.tasks.every((t) => t.artifacts.length === 1)).toBe(true);

    const ids = async (fields: Partial<ListTasksRequest>) => {
      const page = await tasks.list(request(fields), as(client));
      return { ids: page.tasks.map((t) => t.id), total: page.totalSize };
    };
    expect(await ids({ status: TaskState.TASK_STATE_INPUT_REQUIRED })).toEqual({ ids: [other.id, waiting.id], total: 2 });
    expect(await ids({ contextId: context })).toEqual({ ids: [done.id, waiting.id], total: 2 });
    expect(await ids({ contextId: context, status: TaskState.TASK_STATE_COMPLETED })).toEqual({ ids: [done.id], total: 1 });
    expect(await ids({ statusTimestampAfter: at(t0 + 1) })).toEqual({ ids: [done.id, other.id], total: 2 });

    // The waiting task is completed later: it leaves the input-required listing and comes first.
    await tasks.save(
      { ...waiting, status: { ...waiting.status!, state: TaskState.TASK_STATE_COMPLETED, timestamp: at(t0 + 9) } },
      as(client),
    );
    expect(await ids({ status: TaskState.TASK_STATE_INPUT_REQUIRED })).toEqual({ ids: [other.id], total: 1 });
    expect(await ids({ status: TaskState.TASK_STATE_COMPLETED })).toEqual({ ids: [waiting.id, done.id], total: 2 });
    expect((await ids({})).ids[0]).toBe(waiting.id);
  });

  it("skips expired tasks, prunes their entries on the next write, and keeps each index bounded", async () => {
    const client = "expiry";
    const old = taskAt(now);
    await tasks.save(old, as(client));
    const gone = taskAt(now + 1);
    await tasks.save(gone, as(client));
    await redis.del(`a2a:task:${gone.id}`);
    expect((await tasks.list(request(), as(client))).tasks.map((t) => t.id)).toEqual([old.id]);

    now += taskLifetimeSeconds * 1000 + 1;
    expect(await tasks.list(request(), as(client))).toMatchObject({ tasks: [], totalSize: 0 });
    const fresh = taskAt(now);
    await tasks.save(fresh, as(client));
    expect(await redis.zrange("a2a:tasks-of:expiry", 0, -1)).toEqual([fresh.id]);
    expect(await redis.ttl("a2a:tasks-of:expiry")).toBeGreaterThan(taskLifetimeSeconds - 60);

    const small = new UpstashTaskStore(redis, tokens, { now: () => now, maxIndexed: 3 });
    for (let i = 1; i <= 5; i++) await small.save(taskAt(now + i), as("bounded"));
    const listed = await small.list(request(), as("bounded"));
    expect(listed.tasks.map((t) => t.status?.timestamp)).toEqual([at(now + 5), at(now + 4), at(now + 3)]);
    expect(await redis.zcard("a2a:tasks-of:bounded")).toBe(3);
  });

  it.each([
    ["not base64url", "%%%"],
    ["base64url of something else", Buffer.from("hello").toString("base64url")],
    ["a cursor of the wrong shape", b64url({ score: 1, id: "x" })],
    ["a cursor with no id", b64url([1, ""])],
    ["an unsigned cursor", b64url([t0 + 5, "zzzz"])],
    ["an unsigned cursor with a made-up MAC", `${b64url([t0 + 5, "zzzz"])}.${"A".repeat(43)}`],
  ])("refuses a page token that is %s as malformed", async (_, pageToken) => {
    await expect(tasks.list(request({ pageToken }), as("pager"))).rejects.toMatchObject({ name: "RequestMalformedError" });
  });

  it("reads a page token only for the grant it was issued to, and only as issued", async () => {
    for (const ms of [1, 2, 3]) await tasks.save(taskAt(t0 + ms), as("issued-to"));
    const { nextPageToken } = await tasks.list(request({ pageSize: 1 }), as("issued-to"));
    expect((await tasks.list(request({ pageSize: 1, pageToken: nextPageToken }), as("issued-to"))).tasks).toHaveLength(1);

    const [cursor, mac] = nextPageToken.split(".") as [string, string];
    const [score, id] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as [number, string];
    const flipped = Buffer.from(mac, "base64url");
    flipped[0]! ^= 1;
    for (const [pageToken, grant] of [
      [nextPageToken, "someone-else"],
      [nextPageToken, undefined],
      [`${b64url([score + 1, id])}.${mac}`, "issued-to"],
      [`${cursor}.${flipped.toString("base64url")}`, "issued-to"],
      [`${nextPageToken}.${mac}`, "issued-to"],
    ] as const)
      await expect(tasks.list(request({ pageToken }), as(grant)), `${pageToken} for ${grant}`).rejects.toMatchObject({
        name: "RequestMalformedError",
        message: expect.stringMatching(/pageToken/),
      });
  });

  it("refuses a negative or fractional historyLength as malformed", async () => {
    for (const historyLength of [-1, 1.5])
      await expect(tasks.list(request({ historyLength }), as("pager"))).rejects.toMatchObject({ name: "RequestMalformedError" });
  });
});

it("indexes more tasks than one client can make in a task's lifetime under the a2a-briefs quota", () => {
  const { quota, windowSeconds } = policies["a2a-briefs"];
  expect(quota * Math.ceil(taskLifetimeSeconds / windowSeconds)).toBeLessThanOrEqual(maxIndexedTasks);
});
