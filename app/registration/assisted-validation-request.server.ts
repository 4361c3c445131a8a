import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { databaseBusyOrRethrow } from "~/db/database-busy.server";
import { getFixedT } from "~/i18n/i18n.server";
import { replyWithFormKey } from "~/lib/form-key";
import { issueFormKey, isOwnFormKey } from "~/lib/form-key.server";
import { maskPhoneNumber } from "~/topup/phone";
import { ASSISTED_VALIDATION_LIMITS, assistedValidationSchema } from "./assisted-validation-form";
import {
  findAssistedValidationByKey,
  recordAssistedValidation,
  type AssistedValidation,
} from "./assisted-validations.server";
import type { RequestContext } from "~/context";

/** The page: the form with a key of this browser's own. */
export function loadAssistedValidationPage(context: RequestContext) {
  const t = getFixedT("registration");
  return {
    title: t("assisted.title"),
    description: t("assisted.description"),
    idempotencyKey: issueFormKey(context, "assisted-validation"),
  };
}

/** What the customer is shown once the request is recorded: its folio, the line masked, when. */
export interface AssistedValidationReceipt {
  folio: string;
  number: string;
  timeWindow: AssistedValidation["timeWindow"];
}

export type AssistedValidationAnswer =
  | { result: SubmissionResult<string[]>; receipt: null }
  | { result: null; receipt: AssistedValidationReceipt };

const receiptOf = (request: AssistedValidation): AssistedValidationAnswer => ({
  result: null,
  receipt: {
    folio: request.folio,
    number: maskPhoneNumber(request.number),
    timeWindow: request.timeWindow,
  },
});

/**
 * The form sent: checked (each fault a Spanish message next to its field, 400), its key this
 * browser's own (409 with a new one), within the limits per client address and per number (429),
 * then recorded once per key and answered with its folio. The contact is never logged: the log
 * says only that a request was recorded, with its folio.
 */
export async function submitAssistedValidation(context: RequestContext, request: Request) {
  const submission = parseWithZod(await request.formData(), { schema: assistedValidationSchema });
  const refusal = (formError: string) => submission.reply({ formErrors: [formError] });
  if (submission.status !== "success") {
    return data<AssistedValidationAnswer>(
      { result: submission.reply(), receipt: null },
      {
        status: 400,
      },
    );
  }
  const { contacto, numero, franja, idempotency_key } = submission.value;
  if (!isOwnFormKey(context, "assisted-validation", idempotency_key)) {
    const result = replyWithFormKey(
      refusal("registration:assisted.errors.staleForm"),
      issueFormKey(context, "assisted-validation"),
    );
    return data<AssistedValidationAnswer>({ result, receipt: null }, { status: 409 });
  }
  try {
    // The same form sent again (a reload, a double click) is answered, never counted.
    const sent = await findAssistedValidationByKey(context.db, idempotency_key);
    if (sent) return data(receiptOf(sent));
    const verdict = await context.rateLimiter.consume([
      {
        key: `assisted-validation-ip:${context.clientAddressKey}`,
        rule: ASSISTED_VALIDATION_LIMITS.perClient,
      },
      { key: `assisted-validation-line:${numero}`, rule: ASSISTED_VALIDATION_LIMITS.perNumber },
    ]);
    if (!verdict.allowed && !(await findAssistedValidationByKey(context.db, idempotency_key))) {
      context.logger.warn({
        msg: "assisted validations over the limit",
        requestId: context.requestId,
      });
      return data<AssistedValidationAnswer>(
        { result: refusal("registration:assisted.errors.rateLimited"), receipt: null },
        { status: 429, headers: { "Retry-After": String(verdict.retryAfterSeconds) } },
      );
    }
    const { request: recorded, created } = await recordAssistedValidation(context.db, {
      idempotencyKey: idempotency_key,
      number: numero,
      contact: contacto,
      timeWindow: franja,
    });
    if (created) {
      context.logger.info({
        msg: "assisted validation requested",
        requestId: context.requestId,
        folio: recorded.folio,
      });
    }
    return data(receiptOf(recorded));
  } catch (error) {
    return databaseBusyOrRethrow(context, "assisted validation", error, {
      result: refusal("registration:assisted.errors.unavailable"),
      receipt: null,
    } satisfies AssistedValidationAnswer);
  }
}
