"use client";

import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { $api } from "@/lib/api/client";
import { safeNextPath } from "@/lib/auth/safe-next";
import { LayerlineError } from "@/sdk/src/errors";

export function AuthForm({ mode }: { mode: "login" | "signup" }) {
  const router = useRouter();
  const params = useSearchParams();
  const [error, setError] = useState<LayerlineError | null>(null);
  const onSuccess = () => {
    router.push(safeNextPath(params.get("next")));
    router.refresh();
  };
  const onError = (err: unknown) =>
    setError(err instanceof LayerlineError ? err : new LayerlineError(0, null, null, null));
  const signup = $api.useMutation("post", "/api/auth/signup", { onSuccess, onError });
  const login = $api.useMutation("post", "/api/auth/login", { onSuccess, onError });
  const pending = signup.isPending || login.isPending;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setError(null);
    const form = new FormData(e.currentTarget);
    const value = (k: string) => String(form.get(k) ?? "");
    if (mode === "signup") {
      signup.mutate({
        body: { email: value("email"), username: value("username"), password: value("password") },
      });
    } else {
      login.mutate({ body: { login: value("login"), password: value("password") } });
    }
  };

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      {error && !error.problem?.errors ? <Alert>{error.message}</Alert> : null}
      {mode === "signup" ? (
        <>
          <Field
            label="E-mail"
            name="email"
            type="email"
            autoComplete="email"
            required
            error={error?.fieldError("email")}
          />
          <Field
            label="Username"
            name="username"
            autoComplete="username"
            required
            hint="Shown on your public profile and hub models."
            error={error?.fieldError("username")}
          />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            hint="At least 8 characters."
            error={error?.fieldError("password")}
          />
        </>
      ) : (
        <>
          <Field
            label="E-mail or username"
            name="login"
            autoComplete="username"
            required
            error={error?.fieldError("login")}
          />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            error={error?.fieldError("password")}
          />
        </>
      )}
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Please wait…" : mode === "signup" ? "Create account" : "Sign in"}
      </Button>
      <p className="text-center text-sm text-muted">
        {mode === "signup" ? (
          <>
            Already have an account?{" "}
            <Link href="/login" className="font-medium text-accent hover:underline">
              Sign in
            </Link>
          </>
        ) : (
          <>
            New to Layerline?{" "}
            <Link href="/signup" className="font-medium text-accent hover:underline">
              Create an account
            </Link>
          </>
        )}
      </p>
    </form>
  );
}
