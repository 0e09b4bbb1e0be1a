/**
 * The params of an A2A 0.3 request, checked at the gate where the SDK's compatibility layer trusts them: it hands ids
 * to code that calls string methods on them (`"taskId.trim is not a function"`, a -32603 with the engine's words).
 * 1.0 requests go through the SDK's ProtoJSON decoder, which turns every field into its type. The message of a send is
 * checked with its parts (route.ts, `viewOfJson`).
 */
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

type Member = { name: string; required: boolean; type: "string" | "integer" | "object" };
const id = (name = "id", required = true): Member => ({ name, required, type: "string" });

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
};

/** The ids a 0.3 message carries, each a string when present (the compatibility layer trims them). */
const messageIds = ["messageId", "taskId", "contextId"];

const is = { string: (v: unknown) => typeof v === "string", integer: Number.isInteger, object: isObject };

/** What is wrong with a 0.3 request's params, in words, or nothing (unknown methods are the SDK's to answer). */
export function legacyParamsProblem(method: string, params: unknown): string | undefined {
  const members = legacyParams[method];
  if (!members) return undefined;
  if (!isObject(params)) return "params must be an object.";
  for (const { name, required, type } of members) {
    const value = params[name];
    if (value === undefined || value === null) {
      if (required) return `params.${name} is required.`;
    } else if (!is[type](value))
      return `params.${name} must be ${type === "integer" ? "a whole number" : `a${type === "object" ? "n" : ""} ${type}`}.`;
  }
  const message = params.message;
  if (isObject(message)) {
    for (const name of messageIds)
      if (message[name] !== undefined && typeof message[name] !== "string") return `params.message.${name} must be a string.`;
    const references = message.referenceTaskIds;
    if (references !== undefined && !(Array.isArray(references) && references.every(is.string)))
      return "params.message.referenceTaskIds must be an array of strings.";
  }
  return undefined;
}
