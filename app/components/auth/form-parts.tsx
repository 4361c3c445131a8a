import type { FormMetadata } from "@conform-to/react";
import { Link } from "react-router";
import type { FormEvent, ReactNode } from "react";
import { authPath } from "~/auth/steps";
import { buttonClass } from "~/components/ui/button";
import { useTranslation } from "~/i18n/react";
import { CONFIRM_MATCH_MIN_LENGTH, type PasswordPolicy } from "~/auth/schemas";
import type { SocialProviderId } from "~/config.server";

export function AuthCard({
  title,
  intro,
  children,
  wide = false,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <section
      className={`mx-auto w-full min-w-0 ${wide ? "max-w-2xl" : "max-w-md"} rounded-lg border border-slate-200 bg-white p-4 wrap-anywhere shadow-sm sm:p-8`}
    >
      <h1 className="text-2xl font-extrabold tracking-tight text-slate-900">{title}</h1>
      {intro ? <div className="mt-2 text-slate-700">{intro}</div> : null}
      <div className="mt-6">{children}</div>
    </section>
  );
}

/**
 * Sign-in and sign-up as two tabs; plain links, so they work without JavaScript. With
 * registration closed (SIGN_UP_ENABLED=false) there is nothing to switch to: no tabs.
 */
export function AuthTabs({
  active,
  signUpEnabled,
  redirectTo,
}: {
  active: "sign-in" | "sign-up";
  signUpEnabled: boolean;
  /** Where the customer was going, kept when they switch between the two tabs. */
  redirectTo?: string;
}) {
  const { t } = useTranslation("auth");
  if (!signUpEnabled) return null;
  const query = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : "";
  const tab = (view: "sign-in" | "sign-up", label: string) => (
    <Link
      to={`/auth/${view}${query}`}
      aria-current={active === view ? "page" : undefined}
      className={`flex-1 border-b-2 px-3 py-2 text-center font-semibold ${
        active === view
          ? "border-primary text-primary-dark"
          : "border-transparent text-slate-700 hover:border-slate-300"
      }`}
    >
      {label}
    </Link>
  );
  return (
    <nav aria-label={t("tabs.label")} className="mx-auto mb-4 flex w-full max-w-md">
      {tab("sign-in", t("tabs.signIn"))}
      {tab("sign-up", t("tabs.signUp"))}
    </nav>
  );
}

/**
 * Sign-in with a social provider, one per configured provider (SOCIAL_PROVIDERS), under a
 * divider. Plain links, not React Router's: each leaves the site for the hosted page, and works without
 * JavaScript. Nothing is rendered when social sign-in is off.
 */
export function SocialSignInLinks({
  providers,
  redirectTo,
}: {
  providers: readonly SocialProviderId[];
  redirectTo?: string;
}) {
  const { t } = useTranslation("auth");
  if (providers.length === 0) return null;
  const query = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : "";
  return (
    <nav aria-label={t("social.listLabel")} className="mt-6">
      <p className="mb-4 flex items-center gap-3 text-sm text-slate-700 before:h-px before:flex-1 before:bg-slate-300 after:h-px after:flex-1 after:bg-slate-300">
        {t("social.divider")}
      </p>
      <ul className="space-y-3">
        {providers.map((provider) => (
          <li key={provider}>
            <a
              href={`/auth/oauth/${provider}${query}`}
              className={buttonClass({ variant: "outline", width: "block" })}
            >
              {t(`social.providers.${provider}`)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function HiddenRedirect({ value }: { value: string | undefined }) {
  return value ? <input type="hidden" name="redirectTo" value={value} /> : null;
}

/** The pool's password rules, shown before the customer types. */
export function PasswordRules({ policy }: { policy: PasswordPolicy }) {
  const { t } = useTranslation("auth");
  const rules = [
    t("passwordRules.minLength", { min: policy.minLength }),
    policy.requireLowercase ? t("passwordRules.lower") : null,
    policy.requireUppercase ? t("passwordRules.upper") : null,
    policy.requireNumbers ? t("passwordRules.number") : null,
    policy.requireSymbols ? t("passwordRules.special") : null,
  ].filter(Boolean);
  return (
    <div className="mb-4 rounded bg-slate-50 px-3 py-2 text-sm text-slate-700">
      <p className="font-medium">{t("passwordRules.title")}</p>
      <ul className="ml-5 list-disc">
        {rules.map((rule) => (
          <li key={rule}>{rule}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * With JavaScript, a mismatch shows while the customer types, once both fields hold at least
 * CONFIRM_MATCH_MIN_LENGTH characters (spec §5), without waiting for the field to be left; the
 * schema (and so the server) still checks it on blur and on submit. The form's onInput handler.
 */
export function confirmMatchWhileTyping(form: Pick<FormMetadata, "validate">) {
  return (event: FormEvent<HTMLFormElement>) => {
    const values = new FormData(event.currentTarget);
    const password = String(values.get("password") ?? "");
    const confirm = String(values.get("confirm_password") ?? "");
    if (password.length >= CONFIRM_MATCH_MIN_LENGTH && confirm.length >= CONFIRM_MATCH_MIN_LENGTH) {
      form.validate({ name: "confirm_password" });
    }
  };
}

/** The way out of a sign-in step, under its form. */
export function BackToSignIn() {
  const { t } = useTranslation("auth");
  return (
    <p className="mt-4 text-center">
      <Link to={authPath("sign-in")} className="font-medium text-secondary underline">
        {t("common.backToSignIn")}
      </Link>
    </p>
  );
}
