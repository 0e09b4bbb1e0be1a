import { Task } from "@a2a-js/sdk";
import { UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import type { Redis } from "@upstash/redis";

/** Tasks are kept this long after their last change, then expire. */
export const taskLifetimeSeconds = 7 * 24 * 3600;

const key = (id: string) => `a2a:task:${id}`;

/** The OAuth client a call is authenticated as; tasks are visible only to the client that made them. */
const ownerOf = (context: ServerCallContext) => (context.user?.isAuthenticated ? context.user.userName : "");

interface StoredTask {
  owner: string;
  task: unknown;
}

/** What a store failure throws through the SDK; the HTTP layer answers it as service_unavailable (503). */
export const taskStoreUnavailable = "The task store is briefly unavailable; nothing was changed. Retry in 30 seconds.";

async function reaching<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    console.error(`A2A task store failed: ${String(error)}`);
    throw new Error(taskStoreUnavailable);
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
    const record: StoredTask = { owner: ownerOf(context), task: Task.toJSON(task) };
    await reaching(() => this.redis.set(key(task.id), JSON.stringify(record), { ex: this.lifetimeSeconds }));
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const stored = await reaching(() => this.redis.get<StoredTask | string>(key(taskId)));
    const record = typeof stored === "string" ? (JSON.parse(stored) as StoredTask) : stored;
    if (!record || record.owner !== ownerOf(context)) return undefined;
    return Task.fromJSON(record.task);
  }

  async list(): Promise<never> {
    throw new UnsupportedOperationError("ListTasks is not offered: fetch a task by its id with GetTask.");
  }
}
