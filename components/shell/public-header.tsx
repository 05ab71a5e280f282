import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { Logo } from "./logo";
import { ThemeToggle } from "./theme-toggle";

export function PublicHeader({ signedIn }: { signedIn: boolean }) {
  return (
    <header className="border-b border-border bg-panel">
      <div className="mx-auto flex h-14 max-w-6xl items-center justify-between gap-2 px-3 sm:px-6">
        <div className="flex min-w-0 items-center gap-3 sm:gap-6">
          <Logo />
          <nav aria-label="Public" className="flex gap-3 text-sm text-muted sm:gap-4">
            <Link href="/hub" className="hover:text-fg">
              Hub
            </Link>
            <Link href="/docs/api" className="hidden hover:text-fg sm:inline">
              API reference
            </Link>
          </nav>
        </div>
        <div className="flex shrink-0 items-center gap-1 sm:gap-2">
          <ThemeToggle />
          {signedIn ? (
            <Link href="/projects" className={buttonClass("primary", "sm")}>
              Open studio
            </Link>
          ) : (
            <>
              <Link href="/login" className={buttonClass("ghost", "sm")}>
                Sign in
              </Link>
              <Link href="/signup" className={buttonClass("primary", "sm")}>
                Sign up
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
