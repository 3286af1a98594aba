import type { ChatRole } from "./chat-message.js";

/**
 * The chat role of a transcript-window message for the seat whose step it is. A window message carries only
 * `role` (spec 4.9): the narrator is `dm`; the seat's own messages are `player` (the emulator's window holds
 * only the seat's own player messages) or the seat's role name. Anything else (another seat's role name, a
 * role the spec does not list, even `system`) is someone else speaking: `user`, never a privileged role.
 */
export function speakerRole(windowRole: string, seatRole: string): Exclude<ChatRole, "system"> {
  return windowRole === "player" || windowRole === seatRole ? "assistant" : "user";
}
