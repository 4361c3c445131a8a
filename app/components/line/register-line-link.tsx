import { Link } from "react-router";
import { useTranslation } from "~/i18n/react";
import { REGISTRATION_PATH } from "~/registration/paths";

/** The way from a line's figures to registering it to its holder (/registro-de-linea). */
export function RegisterLineLink() {
  const { t } = useTranslation("line");
  return (
    <p className="mt-6 max-w-3xl text-slate-800" data-testid="register-line">
      {t("registration.hint")}{" "}
      <Link
        to={REGISTRATION_PATH}
        className="font-medium text-secondary underline underline-offset-4"
      >
        {t("registration.link")}
      </Link>
    </p>
  );
}
