import Link from "next/link";

export function Logo({ href = "/" }: { href?: string }) {
  return (
    <Link href={href} className="flex items-center gap-2 font-semibold tracking-tight">
      <svg viewBox="0 0 24 24" className="h-6 w-6 text-accent" aria-hidden>
        <rect x="3" y="4" width="18" height="4" rx="1.5" fill="currentColor" opacity="0.45" />
        <rect x="3" y="10" width="18" height="4" rx="1.5" fill="currentColor" opacity="0.7" />
        <rect x="3" y="16" width="18" height="4" rx="1.5" fill="currentColor" />
      </svg>
      <span>Layerline</span>
    </Link>
  );
}
