import { describe, expect, it } from "vitest";
import { VIEW_TRAITS } from "../../src/views/view-traits.js";
import { VIEWS } from "../../src/views/views.js";

describe("the views' traits the plan reads", () => {
  it("are the views' own", () => {
    for (const [name, view] of Object.entries(VIEWS)) {
      expect(VIEW_TRAITS[name as keyof typeof VIEW_TRAITS], name).toEqual({ from: view.from, needsContext: view.needsContext, outputs: view.outputs, chat: view.training !== undefined });
    }
  });
});
