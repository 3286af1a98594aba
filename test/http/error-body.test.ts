import { describe, expect, it } from "vitest";
import { parseErrorBody } from "../../src/http/index.js";

describe("parseErrorBody (spec section 7)", () => {
  it("reads the envelope", () => {
    expect(parseErrorBody('{"error":{"code":"not_found","message":"Run x not found"}}')).toEqual({ code: "not_found", message: "Run x not found", detail: undefined });
  });

  it("reads a plain detail (rule 6), including a validation list", () => {
    expect(parseErrorBody('{"detail":"Too many submissions"}')).toEqual({ code: undefined, message: "Too many submissions", detail: "Too many submissions" });
    const list = parseErrorBody('{"detail":[{"loc":["body","agent_label"],"msg":"bad"}]}');
    expect(list.message).toContain("agent_label");
  });

  it("reads both at once, as the emulator's Run not launched", () => {
    expect(parseErrorBody('{"error":{"code":"conflict","message":"Run not launched"},"detail":"Run not launched"}')).toEqual({ code: "conflict", message: "Run not launched", detail: "Run not launched" });
  });

  it("keeps a non-JSON body as short text, control characters flattened", () => {
    expect(parseErrorBody("<html>Bad\nGateway</html>").message).toBe("<html>Bad Gateway</html>");
    expect(parseErrorBody("x".repeat(1000)).message).toHaveLength(303);
    expect(parseErrorBody('{"error":{"code":"c","message":"line1\\n[INFO] forged\\u202e"}}').message).toBe("line1 [INFO] forged");
  });
});
