import { getApp } from "@/lib/server/app";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = async (req: Request) => getApp().fetch(req);

export {
  handler as GET,
  handler as POST,
  handler as PUT,
  handler as PATCH,
  handler as DELETE,
  handler as OPTIONS,
};
