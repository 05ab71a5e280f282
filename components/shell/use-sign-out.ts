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
      router.push("/login");
      router.refresh();
    },
  });
}
