import { CatalogPage } from "@/components/catalog/catalog-page";

export const metadata = { title: "Base models" };

export default function BaseModelCatalogPage() {
  return <CatalogPage />;
}
