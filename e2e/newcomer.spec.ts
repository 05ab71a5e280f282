import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import AdmZip from "adm-zip";
import { screenshotBothThemes } from "./fixtures";
import { ownDataJourney } from "./journeys/own-data-journey";

test.use({ viewport: { width: 1440, height: 900 } });

const CUSTOMERS = fileURLToPath(new URL("./fixtures/customers.csv", import.meta.url));
/** Ten digits drawn as 28×28 PNGs: train/<digit>/… and validation/<digit>/…. */
const PICTURES = fileURLToPath(new URL("./fixtures/digit-pictures.zip", import.meta.url));

test("a newcomer's CSV: sign up, upload, train, evaluate, deploy and get a prediction without editing the model", async ({
  page,
}) => {
  test.setTimeout(420_000);
  const result = await ownDataJourney(page, {
    file: CUSTOMERS,
    datasetName: "customers",
    expectedTarget: "plan",
    onStep: async (name) => {
      if (name === "upload") await screenshotBothThemes(page, "newcomer-dataset");
      if (name === "deploy and predict") await screenshotBothThemes(page, "newcomer-console");
    },
  });
  expect(["basic", "pro", "enterprise"]).toContain(result.predictedLabel.toLowerCase());
  // The budget: at most 15 clicks from sign-up to a served prediction.
  expect(result.clicks).toBeLessThanOrEqual(15);
});

test("a newcomer's image ZIP: the same journey ends with a picture dropped into the console", async ({
  page,
}) => {
  test.setTimeout(480_000);
  const seven = new AdmZip(PICTURES).getEntries().find((e) => e.entryName.startsWith("validation/7/"));
  if (!seven) throw new Error("no validation picture of a 7");
  const result = await ownDataJourney(page, {
    file: PICTURES,
    datasetName: "digit-pictures",
    expectedTarget: "label",
    trainTimeoutMs: 360_000,
    tryIt: async (console, countClick) => {
      const dataTransfer = await console.evaluateHandle((b64) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], "seven.png", { type: "image/png" }));
        return transfer;
      }, seven.getData().toString("base64"));
      // Dropping a file is one gesture.
      countClick();
      await console.getByTestId("picture-drop").dispatchEvent("drop", { dataTransfer });
      await expect(console.getByRole("img", { name: "Sent: seven.png" })).toBeVisible();
    },
  });
  expect(result.predictedLabel).toMatch(/^\d$/);
  expect(result.clicks).toBeLessThanOrEqual(15);
});
