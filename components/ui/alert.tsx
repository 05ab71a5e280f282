import type { ReactNode } from "react";
import { cn } from "./cn";

export function Alert({
  tone = "danger",
  children,
}: {
  tone?: "danger" | "ok" | "warn";
  children: ReactNode;
}) {
  const tones = {
    danger: "border-danger/40 bg-danger-soft text-danger",
    ok: "border-ok/40 bg-ok-soft text-ok",
    warn: "border-warn/40 bg-warn-soft text-warn",
  };
  return (
    <div
      role={tone === "danger" ? "alert" : "status"}
      className={cn("rounded-md border px-3 py-2 text-sm", tones[tone])}
    >
      {children}
    </div>
  );
}
