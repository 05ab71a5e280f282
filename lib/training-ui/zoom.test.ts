import { describe, expect, it } from "vitest";
import { zoomWindow } from "./zoom";

const pts = [1, 2, 3, 4].map((epoch) => ({ name: "loss", step: epoch * 10, epoch, value: 1 }));

describe("zoomWindow", () => {
  it("turns a step selection into a window, either direction", () => {
    expect(zoomWindow(40.2, 10.7, "step", pts)).toEqual({ from_step: 10, to_step: 41 });
    expect(zoomWindow(5, 5, "step", pts)).toBeNull();
  });
  it("maps an epoch selection to the steps of those epochs", () => {
    expect(zoomWindow(2, 3, "epoch", pts)).toEqual({ from_step: 20, to_step: 30 });
    expect(zoomWindow(2, 2, "epoch", pts)).toBeNull();
  });
});
