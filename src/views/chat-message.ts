import type { ColumnType } from "../schema/column-type.js";

/** The only roles a view emits: what every chat template and the OpenAI fine-tuning API accept. */
export type ChatRole = "system" | "user" | "assistant";

/** One message of a prompt or completion, as TRL and the OpenAI API read it. A type, so it is assignable to JSON. */
export type ChatMessage = { role: ChatRole; content: string };

/** A list of messages as a column: `list<struct<role: string, content: string>>`, so `datasets` gives lists of dicts. */
export const MESSAGES: ColumnType = {
  kind: "list",
  item: {
    kind: "struct",
    fields: [
      { name: "role", type: { kind: "string" }, nullable: false },
      { name: "content", type: { kind: "string" }, nullable: false },
    ],
  },
};
