import { describe, expect, it } from "vitest";
import { buildSnippets, KEY_ENV } from "./snippets";

const base = {
  origin: "https://studio.example/",
  deploymentId: "dep_1",
  example: { inputs: [{ petal: 1.5, kind: null, ok: true, name: "it's" }] },
};

describe("buildSnippets", () => {
  it("gives curl, Python and JavaScript with absolute URLs and the key from the environment", () => {
    const s = buildSnippets({ ...base, languageModel: false });
    expect(s.map((x) => x.id)).toEqual(["curl", "python", "javascript"]);
    const url = "https://studio.example/api/v1/inference/dep_1/predict";
    for (const x of s) {
      expect(x.code).toContain(url);
      expect(x.code).toContain(KEY_ENV);
      expect(x.code).not.toContain("ldk_");
    }
    const curl = s[0].code;
    expect(curl).toContain(`-H "Authorization: Bearer $${KEY_ENV}"`);
    // The body is single-quoted for the shell, with its own quote escaped.
    expect(curl).toContain(`-d '{"inputs":[{"petal":1.5,"kind":null,"ok":true,"name":"it'\\''s"}]}'`);
    const py = s[1].code;
    expect(py).toContain('"kind": None');
    expect(py).toContain('"ok": True');
    expect(py).toContain(`os.environ['${KEY_ENV}']`);
    expect(s[2].code).toContain(`process.env.${KEY_ENV}`);
  });

  it("adds the openai clients for a language model, pointed at /v1 with the deployment as model", () => {
    const s = buildSnippets({ ...base, languageModel: true });
    const py = s.find((x) => x.id === "openai-python")?.code ?? "";
    const js = s.find((x) => x.id === "openai-javascript")?.code ?? "";
    expect(py).toContain('base_url="https://studio.example/v1"');
    expect(py).toContain('model="dep_1"');
    expect(js).toContain('baseURL: "https://studio.example/v1"');
    expect(js).toContain("stream: true");
  });

  it("does not rewrite null inside a string in Python", () => {
    const s = buildSnippets({
      ...base,
      example: { inputs: [{ text: "null and true" }] },
      languageModel: false,
    });
    expect(s[1].code).toContain('"text": "null and true"');
  });

  it("sends a picture file for an image model", () => {
    const s = buildSnippets({ ...base, languageModel: false, imageField: "image" });
    expect(s.map((x) => x.id)).toEqual(["curl", "python", "javascript"]);
    expect(s[0].code).toContain("-F 'image=@picture.png'");
    expect(s[0].code).not.toContain("Content-Type: application/json");
    expect(s[1].code).toContain('files={"image": picture}');
    expect(s[2].code).toContain('form.append("image", new Blob([await readFile("picture.png")]');
    for (const x of s) {
      expect(x.code).toContain("https://studio.example/api/v1/inference/dep_1/predict");
      expect(x.code).toContain(KEY_ENV);
    }
  });
});
