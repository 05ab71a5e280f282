"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "@/lib/api/client";
import {
  type ChatMessage,
  type ChatSettings,
  errorText,
  sessionBody,
  tokenText,
} from "@/lib/deployments-ui/chat";
import { readSse } from "@/sdk/src/sse";

export interface ChatState {
  messages: ChatMessage[];
  streaming: boolean;
  error: unknown;
  send: (text: string, settings: ChatSettings) => void;
  stop: () => void;
  clear: () => void;
}

/** The conversation with `text` added to the reply being written (its last message). */
function appendToReply(list: ChatMessage[], text: string): ChatMessage[] {
  const last = list[list.length - 1];
  if (last?.role !== "assistant") return list;
  return [...list.slice(0, -1), { ...last, content: last.content + text }];
}

/**
 * A conversation with a language-model deployment over the streaming prediction session (the web
 * session authenticates it): the reply grows token by token; `stop` aborts the request.
 */
export function useChat(deploymentId: string): ChatState {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [streaming, setStreaming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);

  const send = useCallback(
    (text: string, settings: ChatSettings) => {
      const history: ChatMessage[] = [...messages, { role: "user", content: text }];
      setMessages([...history, { role: "assistant", content: "" }]);
      setError(null);
      setStreaming(true);
      const controller = new AbortController();
      abort.current = controller;
      void (async () => {
        try {
          const { response } = await api.POST("/api/v1/inference/{deployment_id}/predict/stream/session", {
            params: { path: { deployment_id: deploymentId } },
            body: sessionBody(history, settings),
            parseAs: "stream",
            signal: controller.signal,
          });
          if (!response.body) throw new Error("The server sent no stream.");
          await readSse(
            response.body,
            (m) => {
              if (m.event === "output") {
                const token = tokenText(m.data);
                if (token) setMessages((list) => appendToReply(list, token));
              } else if (m.event === "error") {
                setError(new Error(errorText(m.data)));
              }
            },
            controller.signal,
          );
        } catch (err) {
          if (!controller.signal.aborted) setError(err);
        } finally {
          if (abort.current === controller) abort.current = null;
          setStreaming(false);
        }
      })();
    },
    [deploymentId, messages],
  );

  const stop = useCallback(() => abort.current?.abort(), []);
  const clear = useCallback(() => {
    abort.current?.abort();
    setMessages([]);
    setError(null);
  }, []);

  return { messages, streaming, error, send, stop, clear };
}
