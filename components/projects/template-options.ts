import { analyzeGraph, listTemplates, type TemplateId } from "@/lib/ml";

export interface TemplateOption {
  id: TemplateId | "blank";
  name: string;
  description: string;
  layers: number;
  params: number;
}

/** What "New project" offers: a blank canvas or one of the starter templates, with their size. */
export const TEMPLATE_OPTIONS: TemplateOption[] = [
  {
    id: "blank",
    name: "Blank canvas",
    description: "Start from nothing and drag layers in from the palette.",
    layers: 0,
    params: 0,
  },
  ...listTemplates().map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    layers: t.graph.nodes.length,
    params: analyzeGraph(t.graph).totalParams,
  })),
];
