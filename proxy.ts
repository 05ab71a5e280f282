import { type NextRequest, NextResponse } from "next/server";

const VALID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Gives every response — pages as well as the API — an X-Request-ID: the caller's when well formed,
 * otherwise a new one, passed on to the API so both layers report the same id.
 */
export function proxy(request: NextRequest) {
  const incoming = request.headers.get("x-request-id");
  const id = incoming && VALID.test(incoming) ? incoming : `req_${crypto.randomUUID().replaceAll("-", "")}`;
  const headers = new Headers(request.headers);
  headers.set("x-request-id", id);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("X-Request-ID", id);
  return response;
}

export const config = {
  // The API (/api, /health, /v1) sets X-Request-ID itself; pages get theirs here.
  matcher: ["/((?!api/|v1/|health|_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
