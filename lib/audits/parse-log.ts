/**
 * Reads a calls log (JSON Lines: one JSON object per call). Two shapes are accepted per line:
 *
 * 1. The documented format:
 *    `{"input": <text | chat messages | feature object>, "output": <text>, "latency_ms": <number>,
 *      "cost"?: <number>, "model": <text>, "timestamp"?: <ISO 8601>, "task"?: "classification" | "generation"}`
 * 2. An OpenAI chat-completion request/response pair, as logged:
 *    `{"request": {"model", "messages": [...] , ...}, "response": {"choices": [{"message": {...}}],
 *      "usage"?: {...}, "created"?: <unix seconds>, "model"?}, "latency_ms"?, "cost"?, "timestamp"?}`
 *    The output is the first choice's message content; the timestamp is `timestamp` or `response.created`.
 *
 * Blank lines are skipped; a line that is neither shape is reported in `errors` with its number
 * (1-based) and the rest of the log is still read.
 */
import type { AuditTask, CallInput, ChatMessage, LoggedCall, ParsedLog } from "./types";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  // OpenAI content parts: [{type: "text", text}, …]
  if (Array.isArray(content))
    return content
      .map((p) => (isObject(p) && typeof p.text === "string" ? p.text : ""))
      .filter((s) => s.length > 0)
      .join("\n");
  return "";
}

function asMessages(v: unknown): ChatMessage[] | null {
  if (!Array.isArray(v) || v.length === 0) return null;
  const out: ChatMessage[] = [];
  for (const m of v) {
    if (!isObject(m) || typeof m.role !== "string") return null;
    out.push({ role: m.role, content: contentText(m.content) });
  }
  return out;
}

/** The text a model of ours learns from: a chat's user turns, a feature object's `key=value` pairs. */
export function inputText(input: CallInput): string {
  if (typeof input === "string") return input;
  if (Array.isArray(input)) {
    const users = input.filter((m) => m.role === "user").map((m) => m.content);
    return (users.length > 0 ? users : input.map((m) => m.content)).join("\n");
  }
  return Object.keys(input)
    .sort()
    .map((k) => `${k}=${typeof input[k] === "string" ? input[k] : JSON.stringify(input[k])}`)
    .join(" ");
}

function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null;
}

function task(v: unknown): AuditTask | null {
  return v === "classification" || v === "generation" ? v : null;
}

function timestampOf(v: unknown): string | null {
  if (typeof v === "string" && !Number.isNaN(Date.parse(v))) return new Date(v).toISOString();
  if (typeof v === "number" && Number.isFinite(v)) return new Date(v * 1000).toISOString();
  return null;
}

/** One line's call, or the reason it is not one. */
export function parseCallLine(obj: unknown): LoggedCall | string {
  if (!isObject(obj)) return "not a JSON object";
  if (isObject(obj.request) && isObject(obj.response)) {
    const req = obj.request;
    const res = obj.response;
    const messages = asMessages(req.messages);
    if (!messages) return "request.messages must be a non-empty array of {role, content}";
    const choices = Array.isArray(res.choices) ? res.choices : [];
    const first = choices[0];
    if (!isObject(first) || !isObject(first.message)) return "response.choices[0].message is missing";
    const model =
      typeof req.model === "string" ? req.model : typeof res.model === "string" ? res.model : null;
    if (!model) return "request.model is missing";
    return {
      input: messages,
      input_text: inputText(messages),
      output: contentText(first.message.content),
      latency_ms: num(obj.latency_ms),
      cost: num(obj.cost),
      model,
      timestamp: timestampOf(obj.timestamp) ?? timestampOf(res.created),
      task: task(obj.task),
    };
  }
  const raw = obj.input;
  let input: CallInput;
  if (typeof raw === "string") input = raw;
  else if (Array.isArray(raw)) {
    const messages = asMessages(raw);
    if (!messages) return "input must be text, chat messages or an object";
    input = messages;
  } else if (isObject(raw)) input = raw;
  else return "input is missing (text, chat messages or an object)";
  if (typeof obj.output !== "string") {
    if (obj.output === undefined || obj.output === null) return "output is missing";
  }
  const output = typeof obj.output === "string" ? obj.output : JSON.stringify(obj.output);
  if (typeof obj.model !== "string" || obj.model.length === 0) return "model is missing";
  if (obj.latency_ms !== undefined && num(obj.latency_ms) === null) return "latency_ms must be a number ≥ 0";
  if (obj.cost !== undefined && obj.cost !== null && num(obj.cost) === null)
    return "cost must be a number ≥ 0";
  return {
    input,
    input_text: inputText(input),
    output,
    latency_ms: num(obj.latency_ms),
    cost: num(obj.cost),
    model: obj.model,
    timestamp: timestampOf(obj.timestamp),
    task: task(obj.task),
  };
}

export function parseCallsJsonl(text: string): ParsedLog {
  const calls: LoggedCall[] = [];
  const errors: ParsedLog["errors"] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      errors.push({ line: i + 1, message: "not valid JSON" });
      return;
    }
    const call = parseCallLine(obj);
    if (typeof call === "string") errors.push({ line: i + 1, message: call });
    else calls.push(call);
  });
  return { calls, errors };
}
