"use client";

import { BookOpen, LogOut, Menu, X } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { type ReactNode, useEffect, useState } from "react";
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

/**
 * The signed-in studio: navigation for every area on the left, the page on the right. Below 768 px
 * the navigation folds into a menu behind a top bar, so a phone gets the whole width for the page.
 */
export function AppShell({ user, children }: { user: ShellUser; children: ReactNode }) {
  const pathname = usePathname();
  const signOut = useSignOut();
  const [menuOpen, setMenuOpen] = useState(false);
  // A new page closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation, by design
  useEffect(() => setMenuOpen(false), [pathname]);
  return (
    <div className="min-h-screen md:flex">
      <div className="sticky top-0 z-30 flex h-12 items-center justify-between border-b border-border bg-panel px-3 md:hidden">
        <Logo href="/projects" />
        <button
          type="button"
          onClick={() => setMenuOpen(true)}
          aria-label="Open menu"
          aria-expanded={menuOpen}
          aria-controls="studio-menu"
          className="inline-flex h-9 w-9 items-center justify-center rounded-md text-muted hover:bg-panel-2 hover:text-fg"
        >
          <Menu aria-hidden className="h-5 w-5" />
        </button>
      </div>
      {menuOpen ? (
        <button
          type="button"
          aria-label="Close menu"
          tabIndex={-1}
          onClick={() => setMenuOpen(false)}
          className="fixed inset-0 z-40 bg-black/40 md:hidden"
        />
      ) : null}
      <aside
        id="studio-menu"
        className={cn(
          "flex h-screen w-64 shrink-0 flex-col border-r border-border bg-panel md:sticky md:top-0 md:z-auto md:flex md:w-56",
          menuOpen ? "fixed inset-y-0 left-0 z-50 shadow-xl" : "hidden",
        )}
      >
        <div className="flex h-14 items-center justify-between px-4">
          <Logo href="/projects" />
          <button
            type="button"
            onClick={() => setMenuOpen(false)}
            aria-label="Close menu"
            className="inline-flex h-8 w-8 items-center justify-center rounded-md text-muted hover:bg-panel-2 hover:text-fg md:hidden"
          >
            <X aria-hidden className="h-4 w-4" />
          </button>
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
      <main className="min-w-0 flex-1 px-4 py-6 md:px-8 md:py-8">{children}</main>
    </div>
  );
}
