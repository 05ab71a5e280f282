import { expect, type Page, test } from "@playwright/test";
import { syntheticGraph } from "../lib/ml/graph-builder";
import type { ArchitectureGraph } from "../lib/ml/graph-types";
import { createProject, expectAccessible, savedGraph, screenshotBothThemes, signUpViaApi } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

const LAYERS = 1200;
const ROWS = 40;

type Point = { x: number; y: number };

/** A big diagram laid out in columns of 40 layers, so that zoomed out it fills the canvas. */
function bigGraph(): ArchitectureGraph {
  const { graph } = syntheticGraph(LAYERS);
  return {
    ...graph,
    nodes: graph.nodes.map((n, i) => ({
      ...n,
      position: { x: Math.floor(i / ROWS) * 260, y: (i % ROWS) * 120 },
    })),
  };
}

/** Where a point of the diagram is on screen: React Flow's viewport transform applied to it. */
async function toScreen(page: Page, p: Point): Promise<Point & { zoom: number }> {
  return page.evaluate((p) => {
    const pane = document.querySelector(".react-flow")?.getBoundingClientRect();
    const t = document.querySelector<HTMLElement>(".react-flow__viewport")?.style.transform ?? "";
    const m = /translate\(([-\d.]+)px, ?([-\d.]+)px\) scale\(([\d.]+)\)/.exec(t);
    if (!pane || !m) throw new Error("no canvas");
    const zoom = Number(m[3]);
    return { x: pane.left + Number(m[1]) + p.x * zoom, y: pane.top + Number(m[2]) + p.y * zoom, zoom };
  }, p);
}

/** Waits until the viewport stops moving (fit and zoom animate). */
async function viewSettled(page: Page) {
  let previous = "";
  await expect
    .poll(
      async () => {
        const now = await page
          .locator(".react-flow__viewport")
          .evaluate((el) => (el as HTMLElement).style.transform);
        const same = now === previous;
        previous = now;
        return same;
      },
      { intervals: [100] },
    )
    .toBe(true);
}

/** The middle of a 200 × 78 layer node on screen. */
function middleOf(node: { position: Point }): Point {
  return { x: node.position.x + 100, y: node.position.y + 39 };
}

test("a 1,200-layer diagram zoomed out is an overview you can select, drag, box-select and zoom into", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const graph = bigGraph();
  const { id } = await createProject(context, baseURL, {
    name: "Deep residual MLP",
    graph,
  });

  await page.goto(`/projects/${id}`);
  const overview = page.getByRole("application", { name: /Overview of 1,200 layers/ });
  await expect(overview).toBeVisible();
  await expect(page.getByText("zoom in to see details and connect layers")).toBeVisible();
  // Drawn on the canvas, not as thousands of elements.
  await expect(page.getByTestId("layer-node")).toHaveCount(0);
  await expect(page.getByTestId("overview-minimap")).toBeVisible();

  // Layer 405 sits mid-diagram; the canvas has drawn something where it is.
  const target = graph.nodes[405];
  let at = await toScreen(page, middleOf(target));
  const painted = await overview.locator("canvas").evaluate((canvas: HTMLCanvasElement, p) => {
    const box = canvas.getBoundingClientRect();
    const ratio = canvas.width / box.width;
    const ctx = canvas.getContext("2d");
    const px = ctx?.getImageData(
      Math.round((p.x - box.left) * ratio),
      Math.round((p.y - box.top) * ratio),
      1,
      1,
    );
    return px ? px.data[3] : 0;
  }, at);
  expect(painted).toBeGreaterThan(0);

  // Hover names the layer; a click selects it (the inspector shows it).
  await page.mouse.move(at.x, at.y);
  const hover = page.getByRole("tooltip");
  await expect(hover).toBeVisible();
  await expect(hover).toContainText(target.type);
  await page.mouse.click(at.x, at.y);
  await expect(page.getByTestId("inspector")).toContainText(target.id);

  // Drag it: the move is saved, in diagram units.
  await page.mouse.down();
  await page.mouse.move(at.x + 30, at.y + 20, { steps: 4 });
  await page.mouse.move(at.x + 60, at.y + 40, { steps: 4 });
  await page.mouse.up();
  await expect(page.getByText("All changes saved")).toBeVisible();
  await expect
    .poll(async () => (await savedGraph(context, baseURL, id)).nodes[405].position)
    .not.toEqual(target.position);
  const moved = (await savedGraph(context, baseURL, id)).nodes[405].position;
  expect(Math.abs(moved.x - target.position.x - 60 / at.zoom)).toBeLessThan(2 / at.zoom);
  expect(Math.abs(moved.y - target.position.y - 40 / at.zoom)).toBeLessThan(2 / at.zoom);
  // Nothing else moved.
  expect((await savedGraph(context, baseURL, id)).nodes[404].position).toEqual(graph.nodes[404].position);

  // One undo puts it back.
  await page.keyboard.press("Control+z");
  await expect
    .poll(async () => (await savedGraph(context, baseURL, id)).nodes[405].position)
    .toEqual(target.position);

  await screenshotBothThemes(page, "editor-overview");
  await expectAccessible(page);

  // Shift-drag around the first column's top four layers selects them; Delete removes them.
  const from = await toScreen(page, { x: -20, y: -20 });
  const to = await toScreen(page, { x: 220, y: 3 * 120 + 90 });
  await page.keyboard.down("Shift");
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 6 });
  await page.mouse.up();
  await page.keyboard.up("Shift");
  await page.keyboard.press("Delete");
  await expect(page.getByRole("application", { name: /Overview of 1,196 layers/ })).toBeVisible();
  await page.keyboard.press("Control+z");
  await expect(page.getByRole("application", { name: /Overview of 1,200 layers/ })).toBeVisible();

  // The keyboard: from the selected layer, arrows move down its column and across to the next one
  // (40 layers per column), selecting as they go; Enter zooms in on the layer reached.
  at = await toScreen(page, middleOf(target));
  await page.mouse.click(at.x, at.y);
  await expect(page.getByTestId("inspector")).toContainText(target.id);
  await overview.focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByTestId("inspector")).toContainText(graph.nodes[406].id);
  await page.keyboard.press("ArrowRight");
  const reached = graph.nodes[446];
  await expect(page.getByTestId("inspector")).toContainText(reached.id);
  await expect(page.getByRole("tooltip")).toContainText(reached.type);
  await page.keyboard.press("Enter");
  await expect(overview).toBeHidden();
  await expect(page.locator(`[data-testid=layer-node][data-node-id="${reached.id}"]`)).toBeVisible();
  // Zoomed in, the minimap still shows all 1,200 layers, drawn on its canvas.
  await expect(page.getByTestId("overview-minimap")).toBeVisible();
  await expectAccessible(page);

  // Fit view goes back to the overview; double-click zooms into a layer: the full nodes are back.
  await page.getByRole("button", { name: "Fit view" }).click();
  await expect(overview).toBeVisible();
  await expect(page.getByTestId("layer-node")).toHaveCount(0);
  await viewSettled(page); // the fit animates
  at = await toScreen(page, middleOf(target));
  await page.mouse.dblclick(at.x, at.y);
  await expect(overview).toBeHidden();
  const node = page.locator(`[data-testid=layer-node][data-node-id="${target.id}"]`);
  await expect(node).toBeVisible();
  await expect(node.getByTestId("node-shape")).not.toHaveText("?");
});

test.describe("on a touch screen", () => {
  test.use({ hasTouch: true });

  test("a finger drags a layer in the overview without panning the canvas, and pans on empty space", async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    if (!baseURL) throw new Error("baseURL");
    await signUpViaApi(context, baseURL);
    const graph = bigGraph();
    const { id } = await createProject(context, baseURL, {
      name: "Touch overview",
      graph,
    });
    await page.goto(`/projects/${id}`);
    await expect(page.getByRole("application", { name: /Overview of 1,200 layers/ })).toBeVisible();
    await viewSettled(page);

    const cdp = await context.newCDPSession(page);
    const swipe = async (from: Point, dx: number, dy: number) => {
      const at = (k: number) => [{ x: from.x + (dx * k) / 6, y: from.y + (dy * k) / 6, id: 1 }];
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at(0) });
      for (let k = 1; k <= 6; k++)
        await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: at(k) });
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    };
    const transform = () =>
      page.locator(".react-flow__viewport").evaluate((el) => (el as HTMLElement).style.transform);

    const target = graph.nodes[405];
    const at = await toScreen(page, middleOf(target));
    const before = await transform();
    await swipe(at, 60, 40);
    await expect
      .poll(async () => (await savedGraph(context, baseURL, id)).nodes[405].position)
      .not.toEqual(target.position);
    const moved = (await savedGraph(context, baseURL, id)).nodes[405].position;
    expect(Math.abs(moved.x - target.position.x - 60 / at.zoom)).toBeLessThan(2 / at.zoom);
    expect(Math.abs(moved.y - target.position.y - 40 / at.zoom)).toBeLessThan(2 / at.zoom);
    expect(await transform()).toBe(before);

    // On empty space the same swipe pans, and moves no layer.
    const empty = await toScreen(page, { x: 230, y: 100 }); // between the first two columns
    await swipe(empty, 80, 0);
    await expect.poll(transform).not.toBe(before);
    expect((await savedGraph(context, baseURL, id)).nodes[0].position).toEqual(graph.nodes[0].position);
  });
});
