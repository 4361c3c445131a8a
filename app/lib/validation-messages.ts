import * as z from "zod";
import type { TFunction } from "~/i18n/translate";

/**
 * Every schema names its own messages for what a customer can get wrong; zod's defaults are
 * English and only show for input no form produces (a field sent twice, a number where text
 * belongs, a kilobyte of text). Those get a generic Spanish message instead of zod's.
 *
 * Only the server installs it: the page's own inputs cannot produce those issues in the browser,
 * and importing zod from the browser entry would put it on every page, form or not.
 */
export function setSpanishValidationMessages(t: TFunction) {
  z.config({
    customError: (issue) => {
      if (
        issue.code === "invalid_type" &&
        issue.expected === "string" &&
        Array.isArray(issue.input)
      ) {
        return t("validation.oneValue");
      }
      if (issue.code === "too_big") return t("validation.tooLong");
      if (issue.code === "too_small") return t("validation.tooShort");
      return t("validation.invalid");
    },
  });
}
