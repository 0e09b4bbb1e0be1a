import { Task } from "@a2a-js/sdk";
import { UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import type { Redis } from "@upstash/redis";
import { markStoreFailed } from "./caller.ts";
import { maxStoredHistoryBytes, taskLifetimeSeconds } from "./constants.ts";

const key = (id: string) => `a2a:task:${id}`;

/** The OAuth client a call is authenticated as; tasks are visible only to the client that made them. */
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
 * Tasks in Upstash (the local store locally), so any function instance can answer GetTask and CancelTask. A task
 * another client made is "not found", never "forbidden" (A2A: do not reveal what the caller cannot access).
 */
export class UpstashTaskStore implements TaskStore {
  readonly redis: Redis;
  readonly lifetimeSeconds: number;
  constructor(redis: Redis, lifetimeSeconds = taskLifetimeSeconds) {
    this.redis = redis;
    this.lifetimeSeconds = lifetimeSeconds;
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const record: StoredTask = { owner: ownerOf(context), task: withBoundedHistory(Task.toJSON(task) as TaskJson) };
    await reaching(context, () => this.redis.set(key(task.id), JSON.stringify(record), { ex: this.lifetimeSeconds }));
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const stored = await reaching(context, () => this.redis.get<StoredTask | string>(key(taskId)));
    const record = typeof stored === "string" ? (JSON.parse(stored) as StoredTask) : stored;
    if (!record || record.owner !== ownerOf(context)) return undefined;
    return Task.fromJSON(record.task);
  }

  async list(): Promise<never> {
    throw new UnsupportedOperationError("ListTasks is not offered: fetch a task by its id with GetTask.");
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
