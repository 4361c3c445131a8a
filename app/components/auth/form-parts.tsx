import { getInputProps, type FieldMetadata, type FormMetadata } from "@conform-to/react";
import { Link, useNavigation } from "@remix-run/react";
import { useState, type FormEvent, type ReactNode } from "react";
import { authPath } from "~/auth/steps";
import { useTranslation } from "~/i18n/react";
import { translateFormMessage } from "~/lib/form-messages";
import { useHydrated } from "~/lib/use-hydrated";
import { CONFIRM_MATCH_MIN_LENGTH, type PasswordPolicy } from "~/auth/schemas";
import type { SocialProviderId } from "~/config.server";

/** True while this page's form is being sent (JavaScript only; without it the browser shows progress). */
export function useSubmitting(): boolean {
  return useNavigation().state === "submitting";
}

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
      className={`mx-auto w-full ${wide ? "max-w-2xl" : "max-w-md"} rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8`}
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
 * Errors of the whole form (the service's answer), above the submit button. With JavaScript
 * the customer can dismiss it; it comes back with the next answer.
 */
export function FormAlert({ errors }: { errors: string[] | undefined }) {
  const { t } = useTranslation("auth");
  const hydrated = useHydrated();
  const [dismissed, setDismissed] = useState<string[] | undefined>(undefined);
  if (!errors?.length || dismissed === errors) return null;
  return (
    <div
      role="alert"
      className="mb-4 flex items-start gap-3 rounded border-l-4 border-error bg-error-soft px-4 py-3 text-error"
      data-testid="form-alert"
    >
      <div className="flex-1" data-testid="form-alert-message">
        {errors.map((error) => (
          <p key={error}>{translateFormMessage(t, error)}</p>
        ))}
      </div>
      {hydrated ? (
        <button
          type="button"
          onClick={() => setDismissed(errors)}
          className="rounded px-2 font-bold"
          aria-label={t("alert.dismiss")}
        >
          ×
        </button>
      ) : null}
    </div>
  );
}

type InputType = "text" | "email" | "password" | "tel";

export function Field({
  meta,
  label,
  type = "text",
  autoComplete,
  hint,
  inputMode,
  readOnly,
}: {
  meta: FieldMetadata<unknown>;
  label: string;
  type?: InputType;
  autoComplete?: string;
  hint?: string;
  inputMode?: "numeric" | "email" | "tel" | "text";
  readOnly?: boolean;
}) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const inputProps = getInputProps(meta, { type, ariaDescribedBy: hintId });
  const errors = meta.errors;
  return (
    <div className="mb-4">
      <label htmlFor={meta.id} className="mb-1 block font-medium text-slate-900">
        {label}
      </label>
      <input
        {...inputProps}
        key={inputProps.key}
        autoComplete={autoComplete}
        inputMode={inputMode}
        readOnly={readOnly}
        className={`w-full rounded border px-3 py-2 text-slate-900 ${
          errors?.length ? "border-error" : "border-slate-400"
        } ${readOnly ? "bg-slate-100" : "bg-white"}`}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-slate-700">
          {hint}
        </p>
      ) : null}
      <FieldErrors meta={meta} />
    </div>
  );
}

/** The field's messages: keys of the shared schema (or the server's sentences), in Spanish. */
export function FieldErrors({ meta }: { meta: FieldMetadata<unknown> }) {
  const { t } = useTranslation("auth");
  if (!meta.errors?.length) return null;
  return (
    <div id={meta.errorId} className="mt-1 text-sm font-medium text-error">
      {meta.errors.map((error) => (
        <p key={error}>{translateFormMessage(t, error)}</p>
      ))}
    </div>
  );
}

/** The auth forms' two button looks; links that act as buttons (social sign-in) use them too. */
export const BUTTON_CLASSES = {
  primary:
    "w-full rounded bg-primary px-4 py-2.5 font-semibold text-white hover:bg-primary-dark disabled:cursor-not-allowed disabled:bg-slate-500",
  secondary:
    "w-full rounded border border-primary px-4 py-2.5 font-semibold text-primary-dark hover:bg-primary-soft disabled:cursor-not-allowed disabled:border-slate-400 disabled:text-slate-600",
} as const;

export function SubmitButton({
  children,
  pendingLabel,
  disabled = false,
  name,
  value,
  variant = "primary",
}: {
  children: ReactNode;
  pendingLabel?: string;
  disabled?: boolean;
  name?: string;
  value?: string;
  variant?: "primary" | "secondary";
}) {
  const submitting = useSubmitting();
  const navigation = useNavigation();
  // Only the button that was pressed shows progress.
  const mine = submitting && (!name || navigation.formData?.get(name) === value);
  return (
    <button
      type="submit"
      name={name}
      value={value}
      disabled={disabled || submitting}
      aria-disabled={disabled || submitting || undefined}
      className={BUTTON_CLASSES[variant]}
    >
      {mine && pendingLabel ? pendingLabel : children}
    </button>
  );
}

/**
 * Sign-in with a social provider, one per configured provider (SOCIAL_PROVIDERS), under a
 * divider. Plain links, not Remix's: each leaves the site for the hosted page, and works without
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
              className={`block text-center ${BUTTON_CLASSES.secondary}`}
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
