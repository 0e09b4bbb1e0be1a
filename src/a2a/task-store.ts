import { Task, TaskState, type ListTasksRequest, type ListTasksResponse } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import type { Redis } from "@upstash/redis";
import { parseRecord } from "../store/records.ts";
import { markStoreFailed } from "./caller.ts";
import { listPageSize, maxIndexedTasks, maxStoredHistoryBytes, taskLifetimeSeconds } from "./constants.ts";
import type { PageTokens } from "./page-token.ts";
import { afterCursor, indexKeys, placesOf, saveScript, scoreOf, taskKey, type Cursor } from "./task-index.ts";

/** The grant a call is authenticated as (caller.ts); tasks are visible only to the grant that made them. */
const ownerOf = (context: ServerCallContext) => (context.user?.isAuthenticated ? context.user.userName : "");

interface StoredTask {
  owner: string;
  task: unknown;
}

/** A failure to reach the task store: the call is marked (caller.ts) and answered service_unavailable. */
export class TaskStoreUnavailable extends Error {
  override name = "TaskStoreUnavailable";
}

async function reaching<T>(context: ServerCallContext, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    console.error(`A2A task store failed: ${String(error)}`);
    markStoreFailed(context);
    throw new TaskStoreUnavailable("The task store is briefly unavailable; nothing was changed. Retry in 30 seconds.");
  }
}

/**
 * Tasks in Upstash (the local store locally), so any function instance can answer GetTask, CancelTask and ListTasks. A
 * task another grant made (another person, even through the same client) is "not found", never "forbidden" (A2A: do not reveal what the caller cannot access), and
 * ListTasks reads only the caller's own index (task-index.ts); an anonymous caller has none.
 */
export class UpstashTaskStore implements TaskStore {
  readonly redis: Redis;
  /** Issues and reads ListTasks' page tokens, each bound to the grant that listed. */
  readonly pageTokens: PageTokens;
  readonly lifetimeSeconds: number;
  readonly now: () => number;
  readonly maxIndexed: number;
  constructor(
    redis: Redis,
    pageTokens: PageTokens,
    { lifetimeSeconds = taskLifetimeSeconds, now = Date.now, maxIndexed = maxIndexedTasks } = {},
  ) {
    this.redis = redis;
    this.pageTokens = pageTokens;
    this.lifetimeSeconds = lifetimeSeconds;
    this.now = now;
    this.maxIndexed = maxIndexed;
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const owner = ownerOf(context);
    const record = JSON.stringify({ owner, task: withBoundedHistory(Task.toJSON(task) as TaskJson) } satisfies StoredTask);
    if (!owner) {
      await reaching(context, () => this.redis.set(taskKey(task.id), record, { ex: this.lifetimeSeconds }));
      return;
    }
    const now = this.now();
    const { listed, left } = await placesOf(owner, task);
    const args = [record, this.lifetimeSeconds, scoreOf(task, now), task.id, this.expiredAtOrBefore(), this.maxIndexed];
    await reaching(context, () => this.redis.eval(saveScript, [taskKey(task.id), ...listed, ...left], args));
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const record = parseRecord(await reaching(context, () => this.redis.get<StoredTask | string>(taskKey(taskId))));
    if (!record || record.owner !== ownerOf(context)) return undefined;
    return Task.fromJSON(record.task);
  }

  /**
   * The caller's tasks, newest status first, a page at a time (the handler has checked pageSize, status and
   * statusTimestampAfter). The filter picks the index: contextId's, else the status's, else all; a contextId with a
   * status reads the (small) context index and keeps the tasks in that state.
   */
  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const pageSize = params.pageSize ?? listPageSize.default;
    if (params.historyLength !== undefined && !(Number.isInteger(params.historyLength) && params.historyLength >= 0))
      throw new RequestMalformedError("historyLength must be a whole number, 0 or more.");
    const owner = ownerOf(context);
    // A token issued to no one, or to another grant, is InvalidParams; an anonymous caller was issued none.
    const cursor = params.pageToken ? await this.pageTokens.read(params.pageToken, owner) : undefined;
    if (!owner) return { tasks: [], nextPageToken: "", pageSize, totalSize: 0 };

    const status = params.status === TaskState.TASK_STATE_UNSPECIFIED ? undefined : params.status;
    const index = params.contextId
      ? await indexKeys.context(owner, params.contextId)
      : status !== undefined
        ? indexKeys.state(owner, status)
        : indexKeys.all(owner);
    const wanted = (task: Task) => status === undefined || task.status?.state === status;
    const after = params.statusTimestampAfter ? Date.parse(params.statusTimestampAfter) : -Infinity;
    const min = `(${Math.max(after, this.expiredAtOrBefore())}` as const;

    const found: { task: Task; at: Cursor }[] = [];
    const batch = pageSize + 1;
    let offset = 0;
    while (found.length <= pageSize) {
      const max = cursor ? cursor.score : "+inf";
      const reply = await reaching(context, () =>
        this.redis.zrange<(string | number)[]>(index, max, min, { byScore: true, rev: true, withScores: true, offset, count: batch }),
      );
      offset += reply.length / 2;
      const entries = afterCursor(reply, cursor);
      if (entries.length > 0) {
        const stored = await reaching(context, () => this.redis.mget<(StoredTask | string | null)[]>(...entries.map((e) => taskKey(e.id))));
        stored.forEach((value, i) => {
          const record = parseRecord(value);
          if (record?.owner !== owner) return;
          const task = Task.fromJSON(record.task);
          if (wanted(task)) found.push({ task, at: entries[i]! });
        });
      }
      if (reply.length / 2 < batch) break;
    }
    const page = found.slice(0, pageSize);
    return {
      tasks: page.map(({ task }) => (params.includeArtifacts ? task : { ...task, artifacts: [] })),
      nextPageToken: found.length > pageSize ? await this.pageTokens.issue(page.at(-1)!.at, owner) : "",
      pageSize,
      totalSize: await this.totalOf(index, min, params.contextId && status !== undefined ? wanted : undefined, context),
    };
  }

  /** How many tasks the filters match, before pagination: counted in the index, or read when it holds other states. */
  private async totalOf(index: string, min: `(${number}`, wanted: ((task: Task) => boolean) | undefined, context: ServerCallContext) {
    if (!wanted) return reaching(context, () => this.redis.zcount(index, min, "+inf"));
    const ids = await reaching(context, () => this.redis.zrange<string[]>(index, "+inf", min, { byScore: true, rev: true }));
    if (ids.length === 0) return 0;
    const stored = await reaching(context, () => this.redis.mget<(StoredTask | string | null)[]>(...ids.map(taskKey)));
    return stored.filter((value) => {
      const record = parseRecord(value);
      return record !== null && wanted(Task.fromJSON(record.task));
    }).length;
  }

  /** Index entries scored at or below this are older than the task lifetime: their tasks have expired. */
  private expiredAtOrBefore() {
    return this.now() - this.lifetimeSeconds * 1000;
  }
}

type TaskJson = { history?: unknown[] } & Record<string, unknown>;
const sizeOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/**
 * The newest messages that fit in maxStoredHistoryBytes; a newest message too large on its own keeps its envelope with
 * one text part saying what was left out. What a brief task needs from earlier messages travels in its metadata.
 */
export function withBoundedHistory(task: TaskJson): TaskJson {
  const history = task.history ?? [];
  const kept: unknown[] = [];
  let budget = maxStoredHistoryBytes;
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i] as Record<string, unknown>;
    const size = sizeOf(message);
    if (size <= budget) {
      kept.unshift(message);
      budget -= size;
    } else if (kept.length === 0) {
      const { parts: _parts, ...envelope } = message;
      kept.unshift({ ...envelope, parts: [{ text: `(${size} bytes of this message are not kept)` }] });
      break;
    } else break;
  }
  return { ...task, history: kept };
}
