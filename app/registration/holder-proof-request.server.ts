import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { getFixedT } from "~/i18n/i18n.server";
import { setFlash } from "~/lib/flash.server";
import { replyWithFormKey } from "~/lib/form-key";
import { issueFormKey, isOwnFormKey } from "~/lib/form-key.server";
import { formMessage } from "~/lib/form-messages";

import type { CheckoutHolder } from "./holder";
import { holderProofFormSchema } from "./holder-proof-form";
import {
  isIdValidationUnavailable,
  validationRequestOf,
  type IdEvidence,
  type IdValidationOutcome,
} from "./id-validation";
import { idImagesFrom, ONLINE_IDENTIFICATION_TYPES } from "./identification-evidence";
import {
  openOrderHolder,
  recordHolderProofRefused,
  recordHolderProved,
} from "./order-holders.server";
import {
  REGISTRATION_GIVE_UP_MS,
  type OrderHolderNotice,
  type OrderHolderProof,
} from "./holder-proof";
import { holderProofPath } from "./paths";
import type { RequestContext } from "~/context";

/**
 * /pedido/titular (issue 47, decision 0139): whoever sees an order shows, for the holder it
 * names, that the holder has the identification in hand — its number, a photo of it and a selfie
 * — before the order's lines are registered to that holder. The images go to the identity
 * validation with the holder's name and CURP and are neither kept nor logged; only the outcome
 * is. Three refusals end the online path for the order. The caller has checked that this browser
 * (or the signed-in customer) may see the order.
 */

export interface HolderProofAnswer {
  result: SubmissionResult<string[]>;
  /** The online attempts are used up: the form is not shown again. */
  ended?: boolean;
}

/** What the page shows of the holder: the name typed at checkout and the CURP only masked. */
export interface HolderProofPage {
  title: string;
  holderName: string;
  holderKeyMasked: string;
  kind: CheckoutHolder["holder_kind"];
  /** The identification chosen at checkout, when it can be shown online (INE, passport). */
  identificationType: (typeof ONLINE_IDENTIFICATION_TYPES)[number] | null;
  proof: OrderHolderProof;
  formKey: string;
  /** How long after its activation a line waits for the proof. */
  waitHours: number;
}

function notFound(): never {
  throw data(null, { status: 404 });
}

export async function loadHolderProofPage(
  context: RequestContext,
  orderRef: string,
): Promise<HolderProofPage> {
  const opened = await openOrderHolder(context.db, context.registrationKeys, orderRef);
  // Nothing to show: an order from before the checkout asked, or whose lines are all settled.
  if (!opened) notFound();
  const { holder } = opened;
  const chosen = holder.holder_kind === "fisica" ? holder.identification_type : null;
  return {
    title: getFixedT("registration")("proof.title"),
    holderName: holder.full_name,
    holderKeyMasked: opened.keyMasked,
    kind: holder.holder_kind,
    identificationType: ONLINE_IDENTIFICATION_TYPES.find((type) => type === chosen) ?? null,
    proof: opened.proof,
    formKey: issueFormKey(context, "holder-proof"),
    waitHours: REGISTRATION_GIVE_UP_MS / 3_600_000,
  };
}

function answer(
  result: SubmissionResult<string[]>,
  status: number,
  init: { ended?: boolean; headers?: HeadersInit } = {},
) {
  return data<HolderProofAnswer>(
    { result, ...(init.ended ? { ended: true } : {}) },
    { status, headers: init.headers },
  );
}

/**
 * Where a refusal is told: the number or the photo when the identification is not the holder's,
 * the selfie when it is no live person's, and as the form's message when the holder typed at
 * checkout is what the validation refused (this form cannot change it).
 */
function refusalOf(
  kind: CheckoutHolder["holder_kind"],
  outcome: Exclude<IdValidationOutcome, "valid">,
): { fieldErrors: Record<string, string[]>; formErrors: string[] } {
  const key = `registration:errors.validation.${outcome}`;
  if (outcome === "selfie-not-live") return { fieldErrors: { selfie: [key] }, formErrors: [] };
  if (outcome === "document-mismatch") {
    const field = kind === "fisica" ? "document_number" : "id_photo";
    return { fieldErrors: { [field]: [key] }, formErrors: [] };
  }
  return { fieldErrors: {}, formErrors: [`registration:errors.proof.${outcome}`] };
}

export async function submitHolderProof(
  context: RequestContext,
  request: Request,
  order: { ref: string; path: string },
) {
  const formData = await request.formData();
  let opened;
  try {
    opened = await openOrderHolder(context.db, context.registrationKeys, order.ref);
  } catch (error) {
    return databaseBusyOrRethrow<HolderProofAnswer>(context, "holder proof", error, {
      result: { status: "error", error: { "": [DATABASE_BUSY_KEY] } },
    });
  }
  if (!opened) notFound();
  const { holder, proof } = opened;
  // Already proved (the form sent twice): the order's page says so.
  if (proof.state === "proved") return redirect(order.path, { status: 303 });

  const submission = parseWithZod(formData, { schema: holderProofFormSchema(holder.holder_kind) });
  if (proof.state === "ended") {
    return answer(submission.reply({ formErrors: ["registration:errors.proof.ended"] }), 429, {
      ended: true,
    });
  }
  if (submission.status !== "success") return answer(submission.reply(), 400);
  const form = submission.value;
  if (!isOwnFormKey(context, "holder-proof", form.idempotency_key!)) {
    const refused = submission.reply({ formErrors: ["registration:errors.staleForm"] });
    return answer(replyWithFormKey(refused, issueFormKey(context, "holder-proof")), 409);
  }

  const images = await idImagesFrom(form);
  if ("fieldErrors" in images) {
    return answer(submission.reply({ fieldErrors: images.fieldErrors }), 400);
  }
  const { idPhoto, selfie } = images;
  // A persona física's form also carries the identification chosen and its number.
  const chosen = form as { identification_type?: "ine" | "pasaporte"; document_number?: string };
  const evidence: IdEvidence =
    holder.holder_kind === "extranjera"
      ? {
          document: "pasaporte-extranjero",
          documentNumber: holder.passport_number,
          idPhoto,
          selfie,
        }
      : {
          document: chosen.identification_type ?? "ine",
          documentNumber: chosen.document_number ?? "",
          idPhoto,
          selfie,
        };

  let validation;
  try {
    validation = await context.idValidator.validate({ ...validationRequestOf(holder), evidence });
  } catch (error) {
    if (!isIdValidationUnavailable(error)) throw error;
    context.logger.warn({
      msg: "holder proof: identity validation unavailable",
      reason: error.reason,
      requestId: context.requestId,
    });
    return answer(
      submission.reply({ formErrors: ["registration:errors.validationUnavailable"] }),
      503,
      { headers: { "Retry-After": "300" } },
    );
  }

  const now = new Date();
  try {
    if (validation.outcome !== "valid") {
      const left = await recordHolderProofRefused(context.db, { orderRef: order.ref, now });
      context.logger.info({
        msg: "holder proof: identity not validated",
        outcome: validation.outcome,
        attemptsLeft: left,
        requestId: context.requestId,
      });
      const refusal = refusalOf(holder.holder_kind, validation.outcome);
      if (left < 1) {
        // The form is not shown again: what was refused is told above the way forward.
        return answer(
          submission.reply({
            formErrors: [
              ...Object.values(refusal.fieldErrors).flat(),
              ...refusal.formErrors,
              "registration:errors.proof.ended",
            ],
          }),
          429,
          { ended: true },
        );
      }
      return answer(
        submission.reply({
          fieldErrors: refusal.fieldErrors,
          formErrors: [
            ...refusal.formErrors,
            formMessage("registration:errors.proof.attemptsLeft", { left }),
          ],
        }),
        422,
      );
    }
    await recordHolderProved(context.db, context.registrationKeys, {
      orderRef: order.ref,
      document: evidence.document,
      reference: validation.reference,
      now,
    });
  } catch (error) {
    return databaseBusyOrRethrow<HolderProofAnswer>(context, "holder proof", error, {
      result: submission.reply({ formErrors: [DATABASE_BUSY_KEY] }),
    });
  }
  context.logger.info({ msg: "holder proof: identity validated", requestId: context.requestId });
  setFlash(context, { kind: "success", key: "registration:proof.flash" });
  return redirect(order.path, { status: 303 });
}

/** What the order's page says of its holder's proof: null when the order keeps no holder. */
export async function loadOrderHolderNotice(
  context: RequestContext,
  orderRef: string,
): Promise<OrderHolderNotice | null> {
  const opened = await openOrderHolder(context.db, context.registrationKeys, orderRef);
  if (!opened) return null;
  return {
    holderName: opened.holder.full_name,
    proof: opened.proof,
    proofPath: holderProofPath(orderRef),
  };
}
