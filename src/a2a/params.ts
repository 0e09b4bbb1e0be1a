import {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTasksRequest,
  SendMessageRequest,
  SubscribeToTaskRequest,
  TaskPushNotificationConfig,
  TaskState,
} from "@a2a-js/sdk";
import { maxIdLength, maxListedIds } from "./constants.ts";

/**
 * The params of an A2A request, checked at the gate where the SDK trusts their types. The 0.3 compatibility layer
 * hands ids to code that calls string methods on them (`"taskId.trim is not a function"`, a -32603 with the engine's
 * words); the 1.0 ProtoJSON decoder turns any value of a string field into a string (`{}` becomes the id
 * `"[object Object]"`), where ProtoJSON refuses it. The message of a send is decoded with its parts in route.ts
 * (`viewOfJson`); its string fields are checked here (`messageProblem`).
 */
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

type Member = { name: string; required: boolean; type: "string" | "integer" | "object" };
const id = (name = "id", required = true): Member => ({ name, required, type: "string" });
const optional = (name: string): Member => ({ name, required: false, type: "string" });

const legacyParams: Record<string, Member[]> = {
  "message/send": [
    { name: "message", required: true, type: "object" },
    { name: "configuration", required: false, type: "object" },
  ],
  "message/stream": [
    { name: "message", required: true, type: "object" },
    { name: "configuration", required: false, type: "object" },
  ],
  "tasks/get": [id(), { name: "historyLength", required: false, type: "integer" }],
  "tasks/cancel": [id()],
  "tasks/resubscribe": [id()],
  "tasks/pushNotificationConfig/set": [id("taskId"), { name: "pushNotificationConfig", required: true, type: "object" }],
  "tasks/pushNotificationConfig/get": [id(), id("pushNotificationConfigId", false)],
  "tasks/pushNotificationConfig/list": [id()],
  "tasks/pushNotificationConfig/delete": [id(), id("pushNotificationConfigId")],
  "agent/getAuthenticatedExtendedCard": [],
};

/**
 * The string fields of each 1.0 request (a missing one is the SDK's to refuse, in its words): ProtoJSON takes a field
 * by its JSON name or its proto name, so both are checked. Numbers, booleans and enums the decoder checks itself.
 */
const tenant = optional("tenant");
const currentParams: Record<string, Member[]> = {
  SendMessage: [tenant],
  SendStreamingMessage: [tenant],
  GetTask: [tenant, optional("id")],
  CancelTask: [tenant, optional("id")],
  SubscribeToTask: [tenant, optional("id")],
  ListTasks: [tenant, optional("contextId"), optional("context_id"), optional("pageToken"), optional("page_token")],
  CreateTaskPushNotificationConfig: [tenant, optional("taskId"), optional("task_id")],
  GetTaskPushNotificationConfig: [tenant, optional("taskId"), optional("task_id"), optional("id")],
  ListTaskPushNotificationConfigs: [tenant, optional("taskId"), optional("task_id"), optional("pageToken"), optional("page_token")],
  DeleteTaskPushNotificationConfig: [tenant, optional("taskId"), optional("task_id"), optional("id")],
  GetExtendedAgentCard: [tenant],
};

/**
 * The SDK's ProtoJSON decoder of each 1.0 request. It converts a number or string field with Number() or String(),
 * which throw on an object whose own `toString` is no function (`{"toString": ""}`), a -32603 where ProtoJSON refuses
 * any object in a scalar field. Decoding first, as the SDK will, finds such a field wherever it is.
 */
const decoders: Record<string, { fromJSON(value: unknown): unknown }> = {
  SendMessage: SendMessageRequest,
  SendStreamingMessage: SendMessageRequest,
  GetTask: GetTaskRequest,
  CancelTask: CancelTaskRequest,
  SubscribeToTask: SubscribeToTaskRequest,
  ListTasks: ListTasksRequest,
  CreateTaskPushNotificationConfig: TaskPushNotificationConfig,
  GetTaskPushNotificationConfig: GetTaskPushNotificationConfigRequest,
  ListTaskPushNotificationConfigs: ListTaskPushNotificationConfigsRequest,
  DeleteTaskPushNotificationConfig: DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCard: GetExtendedAgentCardRequest,
};

/** What keeps the SDK from decoding a 1.0 request's params, in words, or nothing. `where` names them in the answer. */
export const undecodable = (method: string, params: unknown, where = "params"): string | undefined => {
  const decoded = decode(method, params, where);
  return "problem" in decoded ? decoded.problem : undefined;
};

/** The params as the SDK will decode them (nothing for a method it decodes none of), or what keeps it from it. */
function decode(method: string, params: unknown, where: string): { value?: unknown } | { problem: string } {
  if (!Object.hasOwn(decoders, method)) return {};
  try {
    return { value: decoders[method]!.fromJSON(params ?? {}) };
  } catch {
    return { problem: `${where} holds an object in a field that takes a number or a string.` };
  }
}

const is = { string: (v: unknown) => typeof v === "string", integer: Number.isInteger, object: isObject };
const article = (type: Member["type"]) => (type === "integer" ? "a whole number" : `a${type === "object" ? "n" : ""} ${type}`);

const methodsOf = (version: string) => (version.startsWith("0.") ? legacyParams : currentParams);

/**
 * Whether `method` is a method of A2A `version`. An unknown one is answered here: the SDK checks params before the
 * method, so an unknown method without params was -32602, where JSON-RPC orders -32601 first. Own members only: a method
 * named "valueOf" or "constructor" is not one.
 */
export const knownMethod = (method: string, version: string) => Object.hasOwn(methodsOf(version), method);

/** What is wrong with a request's params, in words, or nothing (for a known method: see `knownMethod`). */
export function paramsProblem(method: string, params: unknown, version: string): string | undefined {
  if (!knownMethod(method, version)) return undefined;
  const members = methodsOf(version)[method]!;
  if (params === undefined && members.every((m) => !m.required)) return undefined;
  if (!isObject(params)) return "params must be an object.";
  for (const { name, required, type } of members) {
    const value = params[name];
    if (value === undefined || value === null) {
      if (required) return `params.${name} is required.`;
    } else if (!is[type](value)) return `params.${name} must be ${article(type)}.`;
    else if (type === "string" && (value as string).length > maxIdLength)
      return `params.${name} must be at most ${maxIdLength} characters.`;
  }
  if (version.startsWith("0.")) return undefined;
  const decoded = decode(method, params, "params");
  if ("problem" in decoded) return decoded.problem;
  return method === "ListTasks" && params.status != null ? statusFilterProblem(decoded.value as { status?: number }) : undefined;
}

/** The states ListTasks filters by, by name (a number is the name's enum value). */
const taskStates = Object.keys(TaskState).filter((name) => name.startsWith("TASK_STATE_"));

/** A ListTasks status the decoder did not know (it becomes -1, which the SDK's handler names in its own words). */
const statusFilterProblem = ({ status }: { status?: number }): string | undefined =>
  status !== undefined && status >= 0 ? undefined : `params.status must be one of ${taskStates.join(", ")}.`;

/** The string fields of a message and of its parts, by JSON name and proto name (0.3 uses the JSON names alone). */
const messageStrings = ["messageId", "message_id", "contextId", "context_id", "taskId", "task_id"];
const messageStringLists = ["referenceTaskIds", "reference_task_ids", "extensions"];
const partStrings = ["text", "url", "raw", "filename", "mediaType", "media_type"];

/** What is wrong with the types of a sent message's string fields (`params.message` over JSON-RPC), or nothing. */
export function messageProblem(message: unknown, where = "params.message"): string | undefined {
  if (!isObject(message)) return undefined;
  for (const name of messageStrings) {
    const value = message[name];
    if (value != null && typeof value !== "string") return `${where}.${name} must be a string.`;
    if (typeof value === "string" && value.length > maxIdLength) return `${where}.${name} must be at most ${maxIdLength} characters.`;
  }
  for (const name of messageStringLists) {
    const list = message[name];
    if (list != null && !(Array.isArray(list) && list.every(is.string))) return `${where}.${name} must be an array of strings.`;
    if (Array.isArray(list) && (list.length > maxListedIds || list.some((item: string) => item.length > maxIdLength)))
      return `${where}.${name} must hold at most ${maxListedIds} strings of at most ${maxIdLength} characters.`;
  }
  const parts = Array.isArray(message.parts) ? message.parts : [];
  for (const [index, part] of parts.entries()) {
    if (!isObject(part)) continue;
    for (const name of partStrings)
      if (part[name] != null && typeof part[name] !== "string") return `${where}.parts[${index}].${name} must be a string.`;
  }
  return undefined;
}
