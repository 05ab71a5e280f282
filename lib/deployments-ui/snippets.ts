/**
 * Copyable code that calls a deployment: curl, Python `requests`, JavaScript `fetch`, and for a
 * language model the official `openai` clients against the OpenAI-compatible `/v1` routes. The key
 * is never in them: they read it from the environment variable KEY_ENV. Every value in the Python and
 * JavaScript ones is written by the code generator's literal functions (strings escaped there only).
 */
import { jsStr, jsValue, pyStr, pyValue, shStr } from "@/lib/ml/codegen/literals";

export const KEY_ENV = "LAYERLINE_DEPLOYMENT_KEY";

export type SnippetId = "curl" | "python" | "javascript" | "openai-python" | "openai-javascript";

export interface Snippet {
  id: SnippetId;
  label: string;
  language: "bash" | "python" | "javascript";
  code: string;
}

export interface SnippetInput {
  /** The studio's origin (window.location.origin): every URL is absolute. */
  origin: string;
  deploymentId: string;
  /** A valid predict body (the schema's example). */
  example: { inputs: unknown[] };
  languageModel: boolean;
  /** An image model's picture field: the snippets send a picture file (multipart) instead of JSON. */
  imageField?: string | null;
}

/** Sending a picture file: curl -F, requests' files=, fetch with FormData (one instance per file). */
function pictureSnippets(url: string, field: string): Snippet[] {
  return [
    {
      id: "curl",
      label: "curl",
      language: "bash",
      code: [
        `curl -X POST ${shStr(url)} \\`,
        `  -H "Authorization: Bearer $${KEY_ENV}" \\`,
        `  -F ${shStr(`${field}=@picture.png`)}`,
      ].join("\n"),
    },
    {
      id: "python",
      label: "Python",
      language: "python",
      code: [
        "import os",
        "import requests",
        "",
        'with open("picture.png", "rb") as picture:',
        "    response = requests.post(",
        `        ${pyStr(url)},`,
        `        headers={"Authorization": f"Bearer {os.environ['${KEY_ENV}']}"},`,
        `        files={${pyStr(field)}: picture},`,
        "        timeout=30,",
        "    )",
        "response.raise_for_status()",
        'print(response.json()["outputs"])',
      ].join("\n"),
    },
    {
      id: "javascript",
      label: "JavaScript",
      language: "javascript",
      code: [
        'import { readFile } from "node:fs/promises";',
        "",
        "const form = new FormData();",
        `form.append(${jsStr(field)}, new Blob([await readFile("picture.png")], { type: "image/png" }), "picture.png");`,
        `const response = await fetch(${jsStr(url)}, {`,
        `  method: "POST",`,
        `  headers: { Authorization: \`Bearer \${process.env.${KEY_ENV}}\` },`,
        "  body: form,",
        "});",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the snippet's own template literal
        "if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);",
        "const { outputs } = await response.json();",
        "console.log(outputs);",
      ].join("\n"),
    },
  ];
}

export function buildSnippets(input: SnippetInput): Snippet[] {
  const origin = input.origin.replace(/\/+$/, "");
  const url = `${origin}/api/v1/inference/${input.deploymentId}/predict`;
  const body = input.example;
  if (input.imageField) return pictureSnippets(url, input.imageField);
  const snippets: Snippet[] = [
    {
      id: "curl",
      label: "curl",
      language: "bash",
      code: [
        `curl -X POST ${shStr(url)} \\`,
        `  -H "Authorization: Bearer $${KEY_ENV}" \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -d ${shStr(JSON.stringify(body))}`,
      ].join("\n"),
    },
    {
      id: "python",
      label: "Python",
      language: "python",
      code: [
        "import os",
        "import requests",
        "",
        "response = requests.post(",
        `    ${pyStr(url)},`,
        `    headers={"Authorization": f"Bearer {os.environ['${KEY_ENV}']}"},`,
        `    json=${pyValue(body, "    ")},`,
        "    timeout=30,",
        ")",
        "response.raise_for_status()",
        'print(response.json()["outputs"])',
      ].join("\n"),
    },
    {
      id: "javascript",
      label: "JavaScript",
      language: "javascript",
      code: [
        `const response = await fetch(${jsStr(url)}, {`,
        `  method: "POST",`,
        "  headers: {",
        `    Authorization: \`Bearer \${process.env.${KEY_ENV}}\`,`,
        `    "Content-Type": "application/json",`,
        "  },",
        `  body: JSON.stringify(${jsValue(body, "  ")}),`,
        "});",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the snippet's own template literal
        "if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);",
        "const { outputs } = await response.json();",
        "console.log(outputs);",
      ].join("\n"),
    },
  ];
  if (input.languageModel) {
    snippets.push(
      {
        id: "openai-python",
        label: "OpenAI Python",
        language: "python",
        code: [
          "import os",
          "from openai import OpenAI",
          "",
          `client = OpenAI(base_url=${pyStr(`${origin}/v1`)}, api_key=os.environ["${KEY_ENV}"])`,
          "stream = client.chat.completions.create(",
          `    model=${pyStr(input.deploymentId)},`,
          '    messages=[{"role": "user", "content": "We hold these truths"}],',
          "    max_tokens=80,",
          "    stream=True,",
          ")",
          "for chunk in stream:",
          '    print(chunk.choices[0].delta.content or "", end="", flush=True)',
        ].join("\n"),
      },
      {
        id: "openai-javascript",
        label: "OpenAI JavaScript",
        language: "javascript",
        code: [
          'import OpenAI from "openai";',
          "",
          `const client = new OpenAI({ baseURL: ${jsStr(`${origin}/v1`)}, apiKey: process.env.${KEY_ENV} });`,
          "const stream = await client.chat.completions.create({",
          `  model: ${jsStr(input.deploymentId)},`,
          '  messages: [{ role: "user", content: "We hold these truths" }],',
          "  max_tokens: 80,",
          "  stream: true,",
          "});",
          'for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? "");',
        ].join("\n"),
      },
    );
  }
  return snippets;
}
