"use client";

import { BookOpen, LogOut } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { Logo } from "./logo";
import { NAV_ITEMS } from "./nav-items";
import { ThemeToggle } from "./theme-toggle";
import { useSignOut } from "./use-sign-out";

export interface ShellUser {
  username: string;
  email: string;
  plan: string;
}

/** The signed-in studio: navigation for every area on the left, the page on the right. */
export function AppShell({ user, children }: { user: ShellUser; children: ReactNode }) {
  const pathname = usePathname();
  const signOut = useSignOut();
  return (
    <div className="flex min-h-screen">
      <aside className="sticky top-0 flex h-screen w-56 shrink-0 flex-col border-r border-border bg-panel">
        <div className="flex h-14 items-center px-4">
          <Logo href="/projects" />
        </div>
        <nav aria-label="Studio" className="flex-1 space-y-0.5 px-2 py-2">
          {NAV_ITEMS.map(({ href, label, icon: Icon, hint }) => {
            const active = pathname === href || pathname.startsWith(`${href}/`);
            return (
              <Link
                key={href}
                href={href}
                aria-current={active ? "page" : undefined}
                title={hint}
                className={cn(
                  "flex items-center gap-3 rounded-md px-3 py-1.5 text-sm",
                  active
                    ? "bg-accent-soft font-medium text-accent"
                    : "text-muted hover:bg-panel-2 hover:text-fg",
                )}
              >
                <Icon aria-hidden className="h-4 w-4 shrink-0" />
                <span className="min-w-0">
                  <span className="block">{label}</span>
                  <span
                    aria-hidden
                    className="block truncate text-[11px] leading-tight font-normal text-muted"
                  >
                    {hint}
                  </span>
                </span>
              </Link>
            );
          })}
        </nav>
        <div className="border-t border-border p-2">
          <Link
            href="/docs/api"
            className="flex items-center gap-3 rounded-md px-3 py-2 text-sm text-muted hover:bg-panel-2 hover:text-fg"
          >
            <BookOpen aria-hidden className="h-4 w-4" /> API reference
          </Link>
          <div className="mt-2 flex items-center justify-between gap-2 px-3 py-2">
            <div className="min-w-0">
              <p className="truncate text-sm font-medium" data-testid="shell-username">
                {user.username}
              </p>
              <p className="truncate text-xs text-muted">{user.plan} plan</p>
            </div>
            <div className="flex items-center">
              <ThemeToggle />
              <button
                type="button"
                onClick={() => signOut.mutate({})}
                className="inline-flex h-8 w-8 items-center justify-center rounded-md text-muted hover:bg-panel-2 hover:text-fg"
                aria-label="Sign out"
                title="Sign out"
              >
                <LogOut aria-hidden className="h-4 w-4" />
              </button>
            </div>
          </div>
        </div>
      </aside>
      <main className="min-w-0 flex-1 px-8 py-8">{children}</main>
    </div>
  );
}
