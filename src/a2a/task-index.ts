import { TaskState, type Task } from "@a2a-js/sdk";
import { toBase64url } from "../base64url.ts";

/**
 * Each grant's tasks, newest status first, for ListTasks: sorted sets scored by the status timestamp (ms) whose members
 * are task ids. One holds all of a grant's tasks; one per state and one per context serve the status and contextId
 * filters without reading tasks that do not match. Entries older than the task lifetime are skipped when read and
 * pruned on the next write; each set keeps at most `maxIndexedTasks` newest entries and expires with its newest task.
 */
export const taskKey = (id: string) => `a2a:task:${id}`;

/** The owner (a grant id) is encoded, so no owner's key can ever spell another's. */
const ownerPrefix = (owner: string) => `a2a:tasks-of:${encodeURIComponent(owner)}`;

/** A context id is chosen by the client and can be long: the key holds its SHA-256. */
async function contextDigest(contextId: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(contextId));
  return toBase64url(new Uint8Array(digest));
}

const listedStates = Object.values(TaskState).filter((s): s is TaskState => typeof s === "number" && s >= 0);

export const indexKeys = {
  all: (owner: string) => ownerPrefix(owner),
  state: (owner: string, state: TaskState) => `${ownerPrefix(owner)}:state:${state}`,
  context: async (owner: string, contextId: string) => `${ownerPrefix(owner)}:context:${await contextDigest(contextId)}`,
};

/** Where a task is listed: its index keys, and the state indexes it must leave (its state changed). */
export async function placesOf(owner: string, task: Task) {
  const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  return {
    listed: [indexKeys.all(owner), indexKeys.state(owner, state), await indexKeys.context(owner, task.contextId)],
    left: listedStates.filter((s) => s !== state).map((s) => indexKeys.state(owner, s)),
  };
}

/** The score of a task: its status timestamp, or the time of the write when it has none. */
export const scoreOf = (task: Task, now: number) => {
  const stamped = Date.parse(task.status?.timestamp ?? "");
  return Number.isFinite(stamped) ? stamped : now;
};

/**
 * KEYS: the task, its 3 index keys, then the state indexes it leaves. ARGV: the record, lifetime (s), score, task id,
 * the score at or below which entries have expired, the most entries an index keeps.
 */
export const saveScript = `
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
for i = 2, 4 do
  redis.call('ZADD', KEYS[i], ARGV[3], ARGV[4])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', ARGV[5])
  redis.call('ZREMRANGEBYRANK', KEYS[i], 0, -tonumber(ARGV[6]) - 1)
  redis.call('EXPIRE', KEYS[i], ARGV[2])
end
for i = 5, #KEYS do redis.call('ZREM', KEYS[i], ARGV[4]) end
return 1
`;

/**
 * A position in an index: the last task a page showed. New tasks score higher, so they never shift later pages. Clients
 * see it only inside a page token (page-token.ts).
 */
export interface Cursor {
  score: number;
  id: string;
}

/** Entries of a ZRANGE … WITHSCORES reply that come after the cursor, newest first (equal scores: greater id first). */
export function afterCursor(reply: (string | number)[], cursor: Cursor | undefined): Cursor[] {
  const entries: Cursor[] = [];
  for (let i = 0; i + 1 < reply.length; i += 2) entries.push({ id: String(reply[i]), score: Number(reply[i + 1]) });
  return cursor ? entries.filter((e) => e.score < cursor.score || (e.score === cursor.score && e.id < cursor.id)) : entries;
}
