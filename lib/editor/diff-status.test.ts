import { describe, expect, it } from "vitest";
import { diffGraphs, GraphBuilder } from "@/lib/ml";
import { diffStatuses, edgeKey } from "./diff-status";

describe("diffStatuses", () => {
  it("colours removed nodes on the old side, added on the new, changed on both", () => {
    const a = new GraphBuilder();
    a.add("Input", { shape: [4] }, { id: "in" });
    a.add("Dense", { units: 8 }, { id: "d1", inputs: ["in"] });
    a.add("Dropout", {}, { id: "drop", inputs: ["d1"] });
    const b = new GraphBuilder();
    b.add("Input", { shape: [4] }, { id: "in" });
    b.add("Dense", { units: 16 }, { id: "d1", inputs: ["in"] });
    b.add("Dense", { units: 2 }, { id: "d2", inputs: ["d1"] });
    const d = diffGraphs(a.build(), b.build());
    const s = diffStatuses(
      { added: d.nodesAdded, removed: d.nodesRemoved, changed: d.nodesChanged },
      { added: d.edgesAdded, removed: d.edgesRemoved },
    );
    expect(Object.fromEntries(s.from.nodes)).toEqual({ drop: "removed", d1: "changed" });
    expect(Object.fromEntries(s.to.nodes)).toEqual({ d2: "added", d1: "changed" });
    expect(s.from.edges.get(edgeKey({ source: "d1", target: "drop" }))).toBe("removed");
    expect(s.to.edges.get(edgeKey({ source: "d1", target: "d2", targetPort: 0 }))).toBe("added");
    expect(s.to.nodes.has("in")).toBe(false);
  });
});
