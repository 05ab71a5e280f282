import { describe, expect, it } from "vitest";
import { acceptedFormats, CheckpointSniffer } from "./checkpoint-format";

/** `torch.save({"w": torch.zeros(2)}, "epoch-2.pt")` with Debian's torch 1.13 (data descriptors, FB padding). */
const REAL_TORCH_1_13 = Buffer.from(
  "UEsDBAAACAgAAAAAAAAAAAAAAAAAAAAAAAAQABIAZXBvY2gtMi9kYXRhLnBrbEZCDgBaWlpaWlpaWlpaWlpaWoACfXEAWAEAAAB3cQFjdG9yY2guX3V0aWxzCl9yZWJ1aWxkX3RlbnNvcl92MgpxAigoWAcAAABzdG9yYWdlcQNjdG9yY2gKRmxvYXRTdG9yYWdlCnEEWAEAAAAwcQVYAwAAAGNwdXEGSwJ0cQdRSwBLAoVxCEsBhXEJiWNjb2xsZWN0aW9ucwpPcmRlcmVkRGljdApxCilScQt0cQxScQ1zLlBLBwg6uhGHogAAAKIAAABQSwMEAAAICAAAAAAAAAAAAAAAAAAAAAAAAA4AIgBlcG9jaC0yL2RhdGEvMEZCHgBaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWloAAAAAAAAAAFBLBwhp3yJlCAAAAAgAAABQSwMEAAAICAAAAAAAAAAAAAAAAAAAAAAAAA8AOwBlcG9jaC0yL3ZlcnNpb25GQjcAWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWjMKUEsHCNGeZ1UCAAAAAgAAAFBLAQIAAAAACAgAAAAAAAA6uhGHogAAAKIAAAAQAAAAAAAAAAAAAAAAAAAAAABlcG9jaC0yL2RhdGEucGtsUEsBAgAAAAAICAAAAAAAAGnfImUIAAAACAAAAA4AAAAAAAAAAAAAAAAA8gAAAGVwb2NoLTIvZGF0YS8wUEsBAgAAAAAICAAAAAAAANGeZ1UCAAAAAgAAAA8AAAAAAAAAAAAAAAAAWAEAAGVwb2NoLTIvdmVyc2lvblBLBgYsAAAAAAAAAB4DLQAAAAAAAAAAAAMAAAAAAAAAAwAAAAAAAAC3AAAAAAAAANIBAAAAAAAAUEsGBwAAAACJAgAAAAAAAAEAAABQSwUGAAAAAAMAAwC3AAAA0gEAAAAA",
  "base64",
);

function sniff(
  bytes: Uint8Array,
  accepted = acceptedFormats({ runtime: "external", resolvedRuntime: null }),
  chunk = 1,
) {
  const s = new CheckpointSniffer(accepted);
  for (let i = 0; i < bytes.length; i += chunk) s.push(bytes.subarray(i, i + chunk));
  return s.finish();
}

describe("checkpoint formats", () => {
  it("accepts a real torch.save archive, whatever the chunking", () => {
    for (const chunk of [1, 7, 64, 4096]) expect(sniff(REAL_TORCH_1_13, undefined, chunk)).toBe("pytorch");
  });

  it("accepts the TF.js checkpoint document", () => {
    const doc = Buffer.from(JSON.stringify({ format: "layerline-tfjs-checkpoint", epoch: 1, weights: {} }));
    expect(sniff(doc, ["tfjs"], 3)).toBe("tfjs");
  });

  it("refuses a bare pickle, a truncated archive, another ZIP and the other runtime's format", () => {
    const pickle = Buffer.from([0x80, 0x04, 0x95, 0x10, 0, 0, 0, 0, 0, 0, 0, 0x8c]);
    expect(() => sniff(pickle)).toThrow(/not a checkpoint/);
    expect(() => sniff(REAL_TORCH_1_13.subarray(0, 400))).toThrow(/end record/);
    const otherZip = Buffer.from(REAL_TORCH_1_13);
    otherZip.write("epoch-2/evil.pkl", 30, "latin1"); // same length as epoch-2/data.pkl
    expect(() => sniff(otherZip)).toThrow(/first entry/);
    expect(() => sniff(REAL_TORCH_1_13, ["tfjs"])).toThrow(/TF.js/);
    expect(() => sniff(Buffer.from('{"format":"layerline-tfjs-checkpoint"}'), ["pytorch"])).toThrow(
      /PyTorch/,
    );
    expect(() => sniff(Buffer.alloc(0))).toThrow(/too short/);
  });

  it("expects each runtime's own format, either when it is not known", () => {
    expect(acceptedFormats({ runtime: "auto", resolvedRuntime: "pytorch" })).toEqual(["pytorch"]);
    expect(acceptedFormats({ runtime: "tfjs", resolvedRuntime: null })).toEqual(["tfjs"]);
    expect(acceptedFormats({ runtime: "external", resolvedRuntime: null })).toEqual(["pytorch", "tfjs"]);
  });
});
