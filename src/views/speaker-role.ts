import type { ChatRole } from "./chat-message.js";

/** Window roles that are the seat's own messages, besides the seat's role name. */
const OWN_ROLES: ReadonlySet<string> = new Set(["player", "assistant"]);

/**
 * The chat role of a transcript-window message for the seat whose step it is. A window message carries only
 * `role` (spec 4.9): the narrator is `dm`; the seat's own messages are `player` (the emulator's window holds
 * only the seat's own player messages), the seat's role name, or `assistant` (a window written in chat roles
 * names the agent so). Anything else (another seat's role name, `user`, even `system`) is someone else
 * speaking: `user`, never a privileged role.
 */
export function speakerRole(windowRole: string, seatRole: string): Exclude<ChatRole, "system"> {
  return OWN_ROLES.has(windowRole) || windowRole === seatRole ? "assistant" : "user";
}
