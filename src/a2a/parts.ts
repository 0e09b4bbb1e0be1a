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

/** A completed task: its status says `text`, and its one artifact holds `value` as data, and the same words. */
export const completed = (artifact: string, text: string, value: unknown): TaskOutcome => ({
  state: TaskState.TASK_STATE_COMPLETED,
  parts: [textPart(text)],
  artifact: { name: artifact, parts: [dataPart(value), textPart(text)] },
});
