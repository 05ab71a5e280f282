import { Suspense } from "react";
import { AuthCard } from "@/components/auth/auth-card";
import { AuthForm } from "@/components/auth/auth-form";

export const metadata = { title: "Create an account" };

export default function SignupPage() {
  return (
    <AuthCard title="Create your account" subtitle="Design, train and deploy models from one studio.">
      <Suspense>
        <AuthForm mode="signup" />
      </Suspense>
    </AuthCard>
  );
}
