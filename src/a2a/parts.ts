import { Role, TaskState, type Message, type Part } from "@a2a-js/sdk";

/** The parts and messages the agent answers with (ProtoJSON shapes), and what a task skill's work comes to. */
export const textPart = (text: string): Part => ({
  content: { $case: "text", value: text },
  mediaType: "text/plain",
  filename: "",
  metadata: undefined,
});

export const dataPart = (data: unknown): Part => ({
  content: { $case: "data", value: data },
  mediaType: "application/json",
  filename: "",
  metadata: undefined,
});

export const agentMessage = (parts: Part[], ids: { contextId: string; taskId?: string }): Message => ({
  messageId: crypto.randomUUID(),
  contextId: ids.contextId,
  taskId: ids.taskId ?? "",
  role: Role.ROLE_AGENT,
  parts,
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

/** A task skill's answer: the task's state, its status message, an artifact when it completed, the fields kept for a reply. */
export interface TaskOutcome {
  state: TaskState;
  parts: Part[];
  artifact?: { name: string; parts: Part[] };
  carried?: Record<string, unknown>;
}
