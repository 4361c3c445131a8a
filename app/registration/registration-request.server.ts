import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { getFixedT } from "~/i18n/i18n.server";
import { replyWithFormKey } from "~/lib/form-key";
import { issueFormKey, isOwnFormKey } from "~/lib/form-key.server";
import { formMessage } from "~/lib/form-messages";
import { registrationJobId } from "~/line/line-jobs.server";
import { submitNumberProof, type NumberProofFlow } from "~/line/number-proof-flow.server";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import { nationalityOptions, type Holder } from "./holder";
import {
  isIdValidationUnavailable,
  validationRequestOf,
  type IdEvidence,
  type IdValidationOutcome,
} from "./id-validation";
import { idImagesFrom } from "./identification-evidence";
import { REGISTRATION_PATH } from "./paths";
import { sendSmsNotices } from "./registration-notice-sms.server";
import {
  forgetRegistrationAccess,
  provedNumber,
  readRegistrationAccess,
  REGISTRATION_PROOF_MS,
  registeredId,
  registrationAccessOrNew,
  saveRegistrationAccess,
  type RegistrationAccess,
} from "./registration-access.server";
import {
  HOLDER_KIND_PARAM,
  holderKindOf,
  REGISTRATION_INTENTS,
  registrationFormSchema,
} from "./registration-form";
import {
  findRegistration,
  onlineAttemptsLeftFor,
  recordValidationAttempt,
  registerLine,
} from "./registrations.server";
import type { RequestContext } from "~/context";

/**
 * /registro-de-linea (issue 27): the holder of a line already in use registers it online. The
 * number is proved with a code sent to it by SMS, as at /saldo (number-proof-flow.server.ts: the
 * same answers whether or not the number is a line), and stays proved in this browser for a quarter of an hour; then the
 * holder, checked here first (holder.ts), then by the identity validation (context.idValidator)
 * with the identification's number, its photo and a selfie, which nothing keeps (decision 0136).
 * Three failed validations of a number in 24 hours end the online path: the holder goes to a
 * store. The registration's folio is shown once made; the page never shows the whole CURP again.
 */

export type RegistrationStep = "number" | "code" | "holder" | "in-person" | "registered";

export type RegistrationFormName = "number" | "code" | "holder";

export interface RegistrationAnswer {
  form: RegistrationFormName;
  result: SubmissionResult<string[]>;
  /** The holder's form: the online attempts are used up (go to a store). */
  ended?: boolean;
}

/** What the page shows of a registration just made: the holder's key only masked. */
export interface RegistrationReceipt {
  folio: string;
  registeredAt: string;
  number: string;
  holderName: string;
  holderKeyMasked: string;
  holderKind: Holder["holder_kind"];
}

const registrationProof: NumberProofFlow<RegistrationAccess> = {
  purpose: "registration",
  path: REGISTRATION_PATH,
  logLabel: "registration code",
  read: readRegistrationAccess,
  readOrNew: registrationAccessOrNew,
  save: saveRegistrationAccess,
  waitingFor: (access, number) => ({ ...access, pending: number, proved: null, registered: null }),
  provedNow: (access, now) => ({
    holder: access.holder,
    pending: null,
    proved: { number: access.pending, until: now + REGISTRATION_PROOF_MS },
    registered: null,
  }),
};

/** The step this browser is at, and what the step shows. */
export async function loadRegistrationPage(context: RequestContext, url: URL) {
  const access = readRegistrationAccess(context);
  const now = Date.now();
  const t = getFixedT("registration");
  const page = {
    title: t("page.title"),
    description: t("page.description"),
    kind: holderKindOf(url.searchParams.get(HOLDER_KIND_PARAM)),
    codeKey: issueFormKey(context, "line-code"),
    holderFormKey: issueFormKey(context, "registration"),
    number: null as string | null,
    receipt: null as RegistrationReceipt | null,
    countries: [] as Array<{ value: string; label: string }>,
  };
  const shownId = registeredId(access, now);
  if (shownId) {
    const registration = await findRegistration(context.db, shownId);
    if (registration) {
      const receipt: RegistrationReceipt = {
        folio: registration.folio,
        registeredAt: registration.registeredAt,
        number: registration.number,
        holderName: registration.holderName,
        holderKeyMasked: registration.holderKeyMasked,
        holderKind: registration.holderKind,
      };
      return data({ ...page, step: "registered" as RegistrationStep, receipt });
    }
  }
  const number = provedNumber(access, now);
  if (number) {
    if ((await onlineAttemptsLeftFor(context.db, number)) < 1) {
      return data({ ...page, step: "in-person" as RegistrationStep, number }, { status: 429 });
    }
    const countries = nationalityOptions();
    return data({ ...page, step: "holder" as RegistrationStep, number, countries });
  }
  if (access?.pending) {
    return data({ ...page, step: "code" as RegistrationStep, number: access.pending });
  }
  return data({ ...page, step: "number" as RegistrationStep });
}

/**
 * The page's forms. `accountSub`: the signed-in customer who sends it (kept with the
 * registration), or null; anyone who proves the number may register its holder.
 */
export async function submitRegistration(
  context: RequestContext,
  request: Request,
  accountSub: string | null,
) {
  const formData = await request.formData();
  switch (formData.get("intent")) {
    case REGISTRATION_INTENTS.register:
      return register(context, formData, accountSub);
    case REGISTRATION_INTENTS.forget:
      forgetRegistrationAccess(context);
      return redirect(REGISTRATION_PATH, { status: 303 });
    default:
      // A line already in the signed-in account is proved by it, without a code (decision 0135).
      return submitNumberProof(context, formData, registrationProof, accountSub);
  }
}

function answer(
  form: RegistrationFormName,
  result: SubmissionResult<string[]>,
  status: number,
  init: { ended?: boolean; headers?: HeadersInit } = {},
) {
  return data<RegistrationAnswer>(
    { form, result, ...(init.ended ? { ended: true } : {}) },
    { status, headers: init.headers },
  );
}

function holderKeyIsCurp(holder: Holder): boolean {
  return holder.holder_kind === "fisica" || (holder.holder_kind === "extranjera" && !!holder.curp);
}

type Refusal = Exclude<IdValidationOutcome, "valid">;

/**
 * Where the validation's refusal is told: next to the field it is about (the CURP not found, the
 * name not the CURP's), or as the form's message when no one field is wrong (a death recorded,
 * a company's data).
 */
export function refusalMessages(
  holder: Holder,
  outcome: Refusal,
): { fieldErrors: Record<string, string[]>; formErrors: string[] } {
  const key = `registration:errors.validation.${outcome}`;
  const field = (name: string) => ({ fieldErrors: { [name]: [key] }, formErrors: [] });
  if (outcome === "selfie-not-live") return field("selfie");
  if (outcome === "document-mismatch") {
    return field(holder.holder_kind === "extranjera" ? "passport_number" : "document_number");
  }
  if (outcome === "deceased" || holder.holder_kind === "moral") {
    return { fieldErrors: {}, formErrors: [`registration:errors.validation.${outcome}Form`] };
  }
  if (outcome === "name-mismatch") return field("full_name");
  if (holder.holder_kind === "extranjera" && !holder.curp) {
    return {
      fieldErrors: { passport_number: ["registration:errors.validation.passportNotFound"] },
      formErrors: [],
    };
  }
  return field("curp");
}

/** How long the page waits for the BSS to lift "sin registro"; after that the queue goes on alone. */
const LIFT_WAIT_MS = 5_000;

/**
 * The registration's receipt shows a line that works (decision 0100): the job its transaction
 * queued is worked now rather than at the next round. The BSS slow or out of reach only delays
 * the lift (the queue retries); the registration is made and its receipt shows regardless.
 */
async function liftSuspensionAtOnce(
  context: RequestContext,
  registration: { number: string; folio: string; registeredAt: string },
): Promise<void> {
  const id = registrationJobId({
    number: registration.number,
    folio: registration.folio,
    now: new Date(registration.registeredAt),
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<"waited">((resolve) => {
    timer = setTimeout(() => resolve("waited"), LIFT_WAIT_MS);
  });
  try {
    const outcome = await Promise.race([context.lineJobs.runNow(id), waited]);
    if (outcome !== "waited" && outcome?.state !== "done") {
      context.logger.warn({
        msg: "registration: suspension not lifted yet",
        state: outcome?.state ?? "missing",
        requestId: context.requestId,
      });
    }
  } catch (error) {
    // The registration is committed: the queue's next round tells the BSS.
    context.logger.warn({
      msg: "registration: suspension not lifted at once",
      error: error instanceof Error ? error.name : "error",
      requestId: context.requestId,
    });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The registrant's proof of holding the identification, for the validation only: nothing of it is
 * kept, logged or sent back to the browser (a refused form never carries a file back).
 */
async function evidenceOf(
  holder: Holder,
  form: { document_number: string; id_photo: File; selfie: File },
): Promise<{ evidence: IdEvidence } | { fieldErrors: Record<string, string[]> }> {
  const images = await idImagesFrom(form);
  if ("fieldErrors" in images) return images;
  const { idPhoto, selfie } = images;
  if (holder.holder_kind === "extranjera") {
    return {
      evidence: {
        document: "pasaporte-extranjero",
        documentNumber: holder.passport_number,
        idPhoto,
        selfie,
      },
    };
  }
  const type =
    holder.holder_kind === "fisica"
      ? holder.identification_type
      : holder.representative_identification_type;
  // The form refuses a CURP biométrica online: only INE and passport numbers reach here.
  const document = type === "ine" ? "ine" : "pasaporte";
  return { evidence: { document, documentNumber: form.document_number, idPhoto, selfie } };
}

async function register(context: RequestContext, formData: FormData, accountSub: string | null) {
  const submission = parseWithZod(formData, { schema: registrationFormSchema });
  if (submission.status !== "success") return answer("holder", submission.reply(), 400);
  const {
    email,
    idempotency_key: key,
    document_number,
    id_photo,
    selfie,
    ...holder
  } = submission.value;
  if (!isOwnFormKey(context, "registration", key!)) {
    // A key of another browser or form: 409, the form kept, with a key of this browser's own.
    const refused = submission.reply({ formErrors: ["registration:errors.staleForm"] });
    return answer("holder", replyWithFormKey(refused, issueFormKey(context, "registration")), 409);
  }
  const access = readRegistrationAccess(context);
  const number = provedNumber(access, Date.now());
  if (!access || !number) {
    return answer(
      "holder",
      submission.reply({ formErrors: ["registration:errors.proofExpired"] }),
      400,
    );
  }
  // The online path has ended: no form comes back, so neither does what was typed in it (the CURP).
  const inPerson = (reply: SubmissionResult<string[]>) =>
    answer("holder", { ...reply, initialValue: null }, 429, { ended: true });
  let attemptsLeft;
  try {
    attemptsLeft = await onlineAttemptsLeftFor(context.db, number);
  } catch (error) {
    return databaseBusyOrRethrow(context, "registration", error, {
      form: "holder",
      result: submission.reply({ formErrors: [DATABASE_BUSY_KEY] }),
    } satisfies RegistrationAnswer);
  }
  if (attemptsLeft < 1) {
    return inPerson(submission.reply({ formErrors: ["registration:errors.attemptsUsed"] }));
  }

  const proof = await evidenceOf(holder as Holder, { document_number, id_photo, selfie });
  if ("fieldErrors" in proof) {
    return answer("holder", submission.reply({ fieldErrors: proof.fieldErrors }), 400);
  }

  let validation;
  try {
    validation = await context.idValidator.validate({
      ...validationRequestOf(holder as Holder),
      evidence: proof.evidence,
    });
  } catch (error) {
    if (!isIdValidationUnavailable(error)) throw error;
    context.logger.warn({
      msg: "registration: identity validation unavailable",
      reason: error.reason,
      requestId: context.requestId,
    });
    return answer(
      "holder",
      submission.reply({ formErrors: ["registration:errors.validationUnavailable"] }),
      503,
      { headers: { "Retry-After": "300" } },
    );
  }

  try {
    if (validation.outcome !== "valid") {
      await recordValidationAttempt(context.db, {
        number,
        outcome: validation.outcome,
        channel: "online",
      });
      context.logger.info({
        msg: "registration: identity not validated",
        outcome: validation.outcome,
        requestId: context.requestId,
      });
      const messages = refusalMessages(holder as Holder, validation.outcome);
      const left = attemptsLeft - 1;
      if (left < 1) {
        return inPerson(
          submission.reply({
            fieldErrors: messages.fieldErrors,
            formErrors: [...messages.formErrors, "registration:errors.attemptsUsed"],
          }),
        );
      }
      return answer(
        "holder",
        submission.reply({
          fieldErrors: messages.fieldErrors,
          formErrors: [
            ...messages.formErrors,
            formMessage("registration:errors.attemptsLeft", { left }),
          ],
        }),
        422,
      );
    }

    const outcome = await registerLine(context.db, context.registrationKeys, {
      number,
      holder: holder as Holder,
      validation: { ...validation, outcome: "valid" },
      channel: "online",
      accountSub,
    });
    if (outcome.kind === "line-limit") {
      return answer(
        "holder",
        submission.reply({
          // Never the count: whoever typed a stranger's CURP learns nothing of that person's lines.
          formErrors: [
            `registration:errors.${holderKeyIsCurp(holder as Holder) ? "lineLimit" : "lineLimitPassport"}`,
          ],
        }),
        409,
      );
    }
    const { registration } = outcome;
    context.logger.info({
      msg: "line registered",
      folio: registration.folio,
      created: outcome.created,
      requestId: context.requestId,
    });
    if (outcome.created) await liftSuspensionAtOnce(context, registration);
    await sendSmsNotices(
      { sms: context.sms, publicOrigin: context.config.publicOrigin, logger: context.logger },
      outcome.smsNotices,
    );
    if (email) {
      await enqueueMail(context.db, {
        dedupeKey: `line-registered:${registration.id}:${email.toLowerCase()}`,
        to: email,
        template: "line_registered",
        data: { registrationId: registration.id },
      });
      context.mailer.nudge();
    }
    saveRegistrationAccess(context, {
      holder: access.holder,
      pending: null,
      proved: null,
      registered: { id: registration.id, until: Date.now() + REGISTRATION_PROOF_MS },
    });
  } catch (error) {
    return databaseBusyOrRethrow(context, "registration", error, {
      form: "holder",
      result: submission.reply({ formErrors: [DATABASE_BUSY_KEY] }),
    } satisfies RegistrationAnswer);
  }
  return redirect(REGISTRATION_PATH, { status: 303 });
}
