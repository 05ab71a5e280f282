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
  /** What the area is, in a few words (shown under its name, so similar areas are told apart). */
  hint: string;
}

/** One entry per area of the API contract. */
export const NAV_ITEMS: NavItem[] = [
  { href: "/projects", label: "Projects", icon: FolderKanban, hint: "Your model diagrams" },
  { href: "/datasets", label: "Datasets", icon: Database, hint: "Your data and built-ins" },
  { href: "/training", label: "Training", icon: TrendingUp, hint: "Jobs and their charts" },
  { href: "/catalog", label: "Base models", icon: Library, hint: "Pretrained, to fine-tune" },
  { href: "/deployments", label: "Deployments", icon: Rocket, hint: "Models serving predictions" },
  { href: "/models", label: "Models", icon: Boxes, hint: "Your versioned models" },
  { href: "/hub", label: "Hub", icon: Globe, hint: "Models everyone shares" },
  { href: "/audits", label: "Audits", icon: ClipboardCheck, hint: "Is a smaller model enough?" },
  { href: "/account", label: "Account", icon: Settings, hint: "Keys, plan and usage" },
];
