import { SendMessageRequest, TaskState, type ListTasksRequest, type Message, type Task } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
  type TransportFactory,
} from "@a2a-js/sdk/client";

/**
 * The A2A SDK's own client as the tests drive it, in-process (tests/doors) and through the local runtime
 * (tests/runtime): the bindings the card offers, a fetch that carries a token, and the messages the tests send.
 */
export type Binding = "JSONRPC" | "HTTP+JSON";

/** Each binding the card offers in 1.0, with the SDK's transport factory for a given fetch. */
export const bindings: [name: string, binding: Binding, transport: (fetchImpl: typeof fetch) => TransportFactory][] = [
  ["JSON-RPC", "JSONRPC", (fetchImpl) => new JsonRpcTransportFactory({ fetchImpl })],
  ["HTTP+JSON", "HTTP+JSON", (fetchImpl) => new RestTransportFactory({ fetchImpl })],
];

/** `fetchImpl` with `Authorization: Bearer <token>` on every request (unchanged without a token). */
export const withToken =
  (fetchImpl: typeof fetch, token?: string): typeof fetch =>
  (input, init) => {
    if (!token) return fetchImpl(input, init);
    const headers = new Headers(init?.headers);
    headers.set("authorization", `Bearer ${token}`);
    return fetchImpl(input, { ...init, headers });
  };

export interface ClientOptions {
  /** The binding the client must talk (JSON-RPC when not given). */
  binding?: Binding;
  /** How the client reaches the site, the card included (the global fetch when not given). */
  fetchImpl?: typeof fetch;
  token?: string;
  /** The SDK's compatibility layer for A2A 0.3 (JSON-RPC only). */
  legacy?: boolean;
}

/** The SDK's client built from the agent card at `base`, told to use one binding. */
export function a2aClient(
  base: string,
  { binding = "JSONRPC", fetchImpl = fetch, token, legacy = false }: ClientOptions = {},
): Promise<Client> {
  return factory({ binding, fetchImpl, token, legacy }).createFromUrl(base);
}

/** The factory behind `a2aClient`, for a client built from a card the test edits (`createFromAgentCard`). */
export function factory({ binding = "JSONRPC", fetchImpl = fetch, token, legacy = false }: ClientOptions = {}): ClientFactory {
  const authorized = withToken(fetchImpl, token);
  const transport = legacy
    ? new JsonRpcTransportFactory({ fetchImpl: authorized, legacyCompat: { enabled: true } })
    : bindings.find(([, b]) => b === binding)![2](authorized);
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [transport],
      preferredTransports: [binding],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
}

/** A user message, optionally with metadata (e.g. the skill) and the task it continues. */
export const message = (parts: unknown[], metadata?: Record<string, unknown>, taskId?: string) =>
  SendMessageRequest.fromJSON({ message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts, metadata, taskId } });

/** A message to the brief skill carrying `fields` as its data part. */
export const brief = (fields: Record<string, unknown>, taskId?: string) =>
  message([{ data: fields }], taskId ? undefined : { skillId: "svc-project-brief" }, taskId);

/** A ListTasks request: every field the SDK's type requires, with defaults. */
export const listing = (fields: Partial<ListTasksRequest> = {}): ListTasksRequest => ({
  tenant: "",
  contextId: "",
  status: TaskState.TASK_STATE_UNSPECIFIED,
  pageToken: "",
  statusTimestampAfter: undefined,
  ...fields,
});

export const dataOf = (parts: Message["parts"]) => parts.find((p) => p.content?.$case === "data")?.content?.value;
export const textOf = (parts: Message["parts"]) => parts.find((p) => p.content?.$case === "text")?.content?.value as string;
export const isTask = (r: Message | Task): r is Task => "status" in r;
