import type { ColumnType, Field } from "../schema/column-type.js";

/** The only roles a view emits: what every chat template and the OpenAI fine-tuning API accept. */
export type ChatRole = "system" | "user" | "assistant";

/** One message of a prompt or completion, as TRL and the OpenAI API read it. A type, so it is assignable to JSON. */
export type ChatMessage = { role: ChatRole; content: string };

/** A list of messages as a column: `list<struct<role: string, content: string, ...extra>>`, so `datasets` gives lists of dicts. */
export function messagesColumn(...extra: Field[]): ColumnType {
  const fields: Field[] = [
    { name: "role", type: { kind: "string" }, nullable: false },
    { name: "content", type: { kind: "string" }, nullable: false },
    ...extra,
  ];
  return { kind: "list", item: { kind: "struct", fields } };
}

/** `list<struct<role: string, content: string>>`. */
export const MESSAGES: ColumnType = messagesColumn();
