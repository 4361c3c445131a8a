import { useFetcher } from "react-router";
import { useEffect, useRef, useState } from "react";
import {
  createPasskey,
  getPasskey,
  passkeyErrorKey,
  passkeysSupported,
} from "~/auth/passkey-ceremony";
import { buttonClass } from "~/components/ui/button";
import { useTranslation } from "~/i18n/react";

/** What a passkey post answers: the ceremony's options, or the form's Spanish refusal. */
interface PasskeyAnswer {
  passkeyRequestOptions?: Record<string, unknown>;
  passkeyCreationOptions?: Record<string, unknown>;
  error?: Record<string, string[] | null> | null;
}

/**
 * A passkey button (decision 0122): shown only once JavaScript runs in a browser with WebAuthn,
 * so without either the page is the plain form it always was. It posts `<prefix>-start` to the
 * page's action, runs the browser's ceremony with the options that come back, and posts the
 * result as `<prefix>-answer` (a redirect then signs in or reloads the account). Every refusal,
 * the browser's or the identity service's, is a Spanish message under the button.
 */
export function PasskeyButton({
  ceremony,
  label,
  pendingLabel,
  action,
  fields,
  variant = "outline",
}: {
  ceremony: "get" | "create";
  label: string;
  pendingLabel: string;
  /** The route whose action takes the two posts; the current one by default. */
  action?: string;
  /** What the start post carries (the e-mail typed); null keeps the button from posting. */
  fields?: (button: HTMLButtonElement) => Record<string, string> | null;
  variant?: "primary" | "outline";
}) {
  const { t } = useTranslation("auth");
  const fetcher = useFetcher<PasskeyAnswer>();
  const [supported, setSupported] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [inCeremony, setInCeremony] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const handled = useRef<unknown>(null);
  const prefix = ceremony === "get" ? "passkey" : "passkey-create";

  useEffect(() => setSupported(passkeysSupported()), []);

  useEffect(() => {
    const answer = fetcher.data;
    if (fetcher.state !== "idle" || !answer || handled.current === answer) return;
    handled.current = answer;
    const options =
      ceremony === "get" ? answer.passkeyRequestOptions : answer.passkeyCreationOptions;
    if (!options) {
      const messages = Object.values(answer.error ?? {}).flatMap((list) => list ?? []);
      setError(messages.length ? t(messages[0]) : t("passkeys.errors.failed"));
      return;
    }
    setInCeremony(true);
    (ceremony === "get" ? getPasskey(options) : createPasskey(options))
      .then((credential) => {
        fetcher.submit(
          { intent: `${prefix}-answer`, credential: JSON.stringify(credential) },
          { method: "post", action },
        );
      })
      .catch((failure: unknown) => setError(t(`passkeys.errors.${passkeyErrorKey(failure)}`)))
      .finally(() => setInCeremony(false));
  }, [fetcher, ceremony, action, prefix, t]);

  if (!supported) return null;
  const busy = fetcher.state !== "idle" || inCeremony;
  return (
    <div className="space-y-2">
      <button
        ref={button}
        type="button"
        className={buttonClass({ variant, width: "block" })}
        aria-disabled={busy || undefined}
        onClick={() => {
          if (busy || !button.current) return;
          const extra = fields ? fields(button.current) : {};
          if (!extra) {
            setError(t("passkeys.usernameFirst"));
            return;
          }
          setError(null);
          fetcher.submit({ intent: `${prefix}-start`, ...extra }, { method: "post", action });
        }}
      >
        {busy ? pendingLabel : label}
      </button>
      {error ? (
        <p
          role="alert"
          data-testid="passkey-error"
          className="rounded border-l-4 border-error bg-error-soft px-3 py-2 text-error"
        >
          {error}
        </p>
      ) : null}
    </div>
  );
}
