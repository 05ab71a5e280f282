"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { $api } from "@/lib/api/client";

export function useSignOut() {
  const router = useRouter();
  const queryClient = useQueryClient();
  return $api.useMutation("post", "/api/auth/logout", {
    onSuccess: () => {
      queryClient.clear();
      // The home page: the hub, the API reference, sign in and sign up are all one click away.
      router.push("/");
      router.refresh();
    },
  });
}
