import {
  Boxes,
  ClipboardCheck,
  Database,
  FolderKanban,
  Globe,
  Library,
  type LucideIcon,
  Rocket,
  Settings,
  TrendingUp,
} from "lucide-react";

export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
}

/** One entry per area of the API contract. */
export const NAV_ITEMS: NavItem[] = [
  { href: "/projects", label: "Projects", icon: FolderKanban },
  { href: "/datasets", label: "Datasets", icon: Database },
  { href: "/training", label: "Training", icon: TrendingUp },
  { href: "/catalog", label: "Base models", icon: Library },
  { href: "/deployments", label: "Deployments", icon: Rocket },
  { href: "/hub", label: "Hub", icon: Globe },
  { href: "/models", label: "Models", icon: Boxes },
  { href: "/audits", label: "Audits", icon: ClipboardCheck },
  { href: "/account", label: "Account", icon: Settings },
];
