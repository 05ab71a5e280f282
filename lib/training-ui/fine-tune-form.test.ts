import { describe, expect, it } from "vitest";
import { DEFAULT_TRAINING_CONFIG } from "@/lib/ml";
import {
  type FineTuneState,
  INITIAL_FINE_TUNE,
  parseWarmup,
  reachableStep,
  runBody,
  stepBlocker,
} from "./fine-tune-form";

const ready: FineTuneState = {
  ...INITIAL_FINE_TUNE,
  baseModelId: "digits-cnn-0-4",
  datasetId: "builtin-digits",
  datasetVersionId: "builtin-digits-v1",
  config: { ...DEFAULT_TRAINING_CONFIG, epochs: 3 },
};

describe("fine-tuning wizard state", () => {
  it("blocks each step until it is complete, and lands a deep link on the first unfinished step", () => {
    const empty: FineTuneState = { ...INITIAL_FINE_TUNE, config: DEFAULT_TRAINING_CONFIG };
    expect(stepBlocker("base", empty)).toMatch(/base model/);
    expect(reachableStep("estimate", empty)).toBe("base");
    expect(reachableStep("estimate", { ...empty, baseModelId: "m" })).toBe("dataset");
    expect(reachableStep("estimate", ready)).toBe("estimate");
    expect(stepBlocker("recipe", { ...ready, config: null })).toMatch(/configuration/);
    expect(stepBlocker("recipe", { ...ready, freeze: { kind: "layers", layers: [] } })).toMatch(/layers/);
  });

  it("parses the warm-up and builds the request body", () => {
    expect(parseWarmup("")).toEqual({ ok: true, value: 0 });
    expect(parseWarmup("0.5")).toEqual({ ok: true, value: 0.5 });
    expect(parseWarmup("-1").ok).toBe(false);
    expect(parseWarmup("many").ok).toBe(false);
    expect(runBody({ ...ready, warmupText: "x" })).toBeNull();
    expect(
      runBody({
        ...ready,
        freeze: { kind: "layers", layers: ["conv_2", "conv_1"] },
        name: "  mine ",
        warmupText: "1",
      }),
    ).toEqual({
      base_model_id: "digits-cnn-0-4",
      dataset_id: "builtin-digits",
      dataset_version_id: "builtin-digits-v1",
      config: ready.config,
      freeze: ["conv_1", "conv_2"],
      lr_schedule: "cosine",
      warmup_epochs: 1,
      name: "mine",
      runtime: "auto",
      strategy: "single",
    });
    expect(runBody({ ...ready, freeze: { kind: "base" } })?.freeze).toBe("base");
  });
});
