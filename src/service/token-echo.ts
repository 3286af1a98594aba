/**
 * What a careless server or proxy writes when it quotes the credential back: the Authorization header's
 * token verbatim and in every encoding evalshard must see through (base64 wrapped with `\n` and `\r\n`,
 * URL-safe base64, percent-encoding, hex, JSON `\u` escapes doubly escaped, HTML entities), and a piece of
 * it. The `echo` and `echo_line` faults put it in an error body and in an export's `{"error": …}` line.
 */
export function tokenEcho(authorization: string | undefined): string {
  const token = (authorization ?? "").replace(/^Bearer\s+/i, "");
  const bytes = Buffer.from(`key=${token};`);
  const wrap = (text: string, width: number, eol: string) => text.match(new RegExp(`.{1,${width}}`, "g"))?.join(eol) ?? text;
  const every = (one: (code: number) => string) => [...token].map((c) => one(c.charCodeAt(0))).join("");
  return [
    `invalid credential ${token}`,
    `base64 ${wrap(bytes.toString("base64"), 19, "\n")}`,
    `base64 ${wrap(Buffer.from(`x${token}`).toString("base64"), 13, "\r\n")}`,
    `base64url ${Buffer.from(`xy${token}`).toString("base64url")}`,
    `url ${[...token].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`).join("")}`,
    `hex ${Buffer.from(token).toString("hex")} ${Buffer.from(token).toString("hex").toUpperCase()}`,
    `json ${every((c) => `\\\\u${c.toString(16).padStart(4, "0")}`)}`,
    `html ${every((c) => `&#${c};`)} ${every((c) => `&#x${c.toString(16)};`)} ${token.replace(/[_/+=&-]/g, (c) => NAMED[c] ?? c)}`,
    `piece ${token.slice(2, -2)}`,
  ].join("\n");
}

const NAMED: Readonly<Record<string, string>> = { _: "&lowbar;", "/": "&sol;", "+": "&plus;", "=": "&equals;", "&": "&amp;", "-": "&hyphen;" };
