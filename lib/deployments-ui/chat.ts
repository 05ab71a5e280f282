/**
 * The chat playground's side of the streaming prediction session
 * (`POST /api/v1/inference/{id}/predict/stream/session`): the request body for a conversation, and
 * the token text carried by each `output` event.
 */

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatSettings {
  temperature: number;
  maxTokens: number;
}

export function sessionBody(messages: readonly ChatMessage[], settings: ChatSettings) {
  return {
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
    max_tokens: settings.maxTokens,
    temperature: settings.temperature,
  };
}

/** The text of an `output` event: `{text}` (or `token`, `delta`, `content`), or a bare JSON string. */
export function tokenText(data: string): string | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof json === "string") return json;
  if (typeof json !== "object" || json === null) return null;
  const o = json as Record<string, unknown>;
  for (const k of ["text", "token", "delta", "content"]) if (typeof o[k] === "string") return o[k] as string;
  return null;
}

/** The message of an `error` event (a problem's detail, or its title). */
export function errorText(data: string): string {
  try {
    const o = JSON.parse(data) as Record<string, unknown>;
    for (const k of ["detail", "message", "title"]) if (typeof o[k] === "string") return o[k] as string;
  } catch {
    // not JSON: the text itself
  }
  return data || "The generation failed.";
}
