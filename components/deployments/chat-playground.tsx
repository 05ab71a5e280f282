"use client";

import { Bot, Eraser, Send, Square, User } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { ProblemAlert } from "./problem-alert";
import { useChat } from "./use-chat";

/** The chat playground of a language-model deployment: the reply streams in token by token. */
export function ChatPlayground({ deploymentId }: { deploymentId: string }) {
  const chat = useChat(deploymentId);
  const [text, setText] = useState("");
  const [temperature, setTemperature] = useState(0.8);
  const [maxTokens, setMaxTokens] = useState(120);
  const box = useRef<HTMLDivElement>(null);
  const ids = { text: useId(), temperature: useId(), maxTokens: useId() };
  const last = chat.messages[chat.messages.length - 1];

  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the reply as it grows
  useEffect(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [last?.content, chat.messages.length]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim() || chat.streaming) return;
    chat.send(text, { temperature, maxTokens });
    setText("");
  };

  return (
    <Card>
      <CardHeader
        title="Chat"
        description="A character-level language model continues your text, one character (token) at a time."
        actions={
          <Button variant="ghost" size="sm" onClick={chat.clear} disabled={chat.messages.length === 0}>
            <Eraser aria-hidden className="h-4 w-4" /> Clear
          </Button>
        }
      />
      <div className="grid gap-0 lg:grid-cols-[1fr_16rem]">
        <div className="flex min-w-0 flex-col border-border lg:border-r">
          <div
            ref={box}
            role="log"
            aria-label="Conversation"
            aria-live="polite"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
            tabIndex={0}
            className="h-96 space-y-4 overflow-y-auto px-5 py-4"
          >
            {chat.messages.length === 0 ? (
              <p className="py-16 text-center text-sm text-muted">
                Write the start of a sentence and send it.
              </p>
            ) : (
              chat.messages.map((m, i) => (
                <div
                  // biome-ignore lint/suspicious/noArrayIndexKey: a conversation only grows at its end
                  key={i}
                  className={cn("flex gap-3", m.role === "user" ? "flex-row-reverse" : "")}
                  data-testid={`chat-${m.role}`}
                >
                  <span
                    aria-hidden
                    className={cn(
                      "flex h-7 w-7 shrink-0 items-center justify-center rounded-full",
                      m.role === "user" ? "bg-accent-soft text-accent" : "bg-panel-2 text-muted",
                    )}
                  >
                    {m.role === "user" ? <User className="h-4 w-4" /> : <Bot className="h-4 w-4" />}
                  </span>
                  <p
                    className={cn(
                      "max-w-[80%] whitespace-pre-wrap break-words rounded-lg px-3 py-2 text-sm",
                      m.role === "user" ? "bg-accent text-accent-fg" : "bg-panel-2 font-mono",
                    )}
                  >
                    <span className="sr-only">{m.role === "user" ? "You: " : "Model: "}</span>
                    <span data-testid="chat-text">{m.content}</span>
                    {chat.streaming && i === chat.messages.length - 1 ? (
                      <span
                        aria-hidden
                        className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-current align-text-bottom"
                      />
                    ) : null}
                  </p>
                </div>
              ))
            )}
          </div>
          {chat.error ? (
            <div className="px-5 pb-3">
              <ProblemAlert error={chat.error} />
            </div>
          ) : null}
          <form onSubmit={submit} className="flex items-end gap-2 border-t border-border px-5 py-3">
            <label htmlFor={ids.text} className="sr-only">
              Message
            </label>
            <textarea
              id={ids.text}
              value={text}
              rows={2}
              placeholder="We hold these truths…"
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey) submit(e);
              }}
              className="min-h-10 flex-1 resize-none rounded-md border border-border bg-panel px-3 py-2 text-sm text-fg placeholder:text-muted focus:border-accent focus:outline-none"
            />
            {chat.streaming ? (
              <Button variant="secondary" onClick={chat.stop}>
                <Square aria-hidden className="h-4 w-4" /> Stop
              </Button>
            ) : (
              <Button type="submit" disabled={!text.trim()}>
                <Send aria-hidden className="h-4 w-4" /> Send
              </Button>
            )}
          </form>
        </div>
        <div className="space-y-4 border-t border-border px-5 py-4 lg:border-t-0">
          <div className="space-y-1">
            <label htmlFor={ids.temperature} className="flex justify-between text-sm font-medium">
              Temperature <span className="font-mono tabular-nums text-muted">{temperature.toFixed(2)}</span>
            </label>
            <input
              id={ids.temperature}
              type="range"
              min={0}
              max={2}
              step={0.05}
              value={temperature}
              onChange={(e) => setTemperature(Number(e.target.value))}
              className="w-full accent-[var(--accent)]"
            />
            <p className="text-xs text-muted">
              0 always picks the likeliest character; higher is more varied.
            </p>
          </div>
          <div className="space-y-1">
            <label htmlFor={ids.maxTokens} className="block text-sm font-medium">
              Max tokens
            </label>
            <input
              id={ids.maxTokens}
              type="number"
              min={1}
              max={1024}
              value={maxTokens}
              onChange={(e) => setMaxTokens(Math.max(1, Math.min(1024, Number(e.target.value) || 1)))}
              className={inputClass}
            />
            <p className="text-xs text-muted">Characters to generate at most (1–1024).</p>
          </div>
        </div>
      </div>
    </Card>
  );
}
