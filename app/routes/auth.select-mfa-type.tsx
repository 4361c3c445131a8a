import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { challengeErrorReply, requirePending, respondToChallenge } from "~/auth/challenge.server";
import { authT, invalidReply, rateLimited } from "~/auth/flow.server";
import { selectOfferedMfaTypeSchema } from "~/auth/schemas";
import { setPending } from "~/auth/session.server";
import {
  authPath,
  CHALLENGE,
  CHALLENGE_BY_MFA_TYPE,
  parseMfaTypes,
  setupMfaTypes,
} from "~/auth/steps";
import { AuthCard, BackToSignIn } from "~/components/auth/form-parts";
import { SubmitButton } from "~/components/ui/button";
import { ChoiceGroup } from "~/components/ui/choice-group";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { labelFields } from "~/components/ui/labelled-fields";
import { titleMeta } from "~/lib/meta";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

/**
 * Two of the spec's steps share this view: choosing which MFA answers this sign-in
 * (SELECT_MFA_TYPE) and choosing which MFA to set up (MFA_SETUP offering more than one).
 */
function pendingChoice(context: LoaderFunctionArgs["context"]) {
  const pending = requirePending(
    context,
    ({ challengeName }) =>
      challengeName === CHALLENGE.selection || challengeName === CHALLENGE.setup,
  );
  return pending.challengeName === CHALLENGE.selection
    ? {
        pending,
        purpose: "select" as const,
        types: parseMfaTypes(pending.parameters?.MFAS_CAN_CHOOSE),
      }
    : { pending, purpose: "setup" as const, types: setupMfaTypes(pending.parameters) };
}

export function loader({ context }: LoaderFunctionArgs) {
  const { purpose, types } = pendingChoice(context);
  return { title: authT()(`selectMfaType.${purpose}.title`), purpose, types };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { pending, purpose, types } = pendingChoice(context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: selectOfferedMfaTypeSchema(types) });
  if (submission.status !== "success") return invalidReply(submission);
  const limited = await rateLimited(context, submission, pending.username);
  if (limited) return limited;
  const choice = submission.value.mfa_type;
  if (purpose === "select") {
    return respondToChallenge({
      context,
      submission,
      pending,
      responses: { ANSWER: CHALLENGE_BY_MFA_TYPE[choice] },
    });
  }
  if (choice !== "TOTP") return redirect(authPath("setup-email"), { status: 303 });
  try {
    const associated = await context.identity.client.associateSoftwareToken({
      session: pending.session,
    });
    const { expiresAt: _expires, ...rest } = pending;
    setPending(context, {
      ...rest,
      totpSecret: associated.SecretCode,
      session: associated.Session ?? pending.session,
    });
    return redirect(authPath("setup-totp"), { status: 303 });
  } catch (error) {
    return challengeErrorReply(context, submission, error, "AssociateSoftwareToken", pending);
  }
}

export default function SelectMfaTypePage() {
  const { t } = useTranslation("auth");
  const { purpose, types } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: selectOfferedMfaTypeSchema(types) }),
  });
  const { field, summary } = labelFields(fields, {
    mfa_type: t("fields.mfa_type"),
  });
  return (
    <AuthCard
      title={t(`selectMfaType.${purpose}.heading`)}
      intro={t(`selectMfaType.${purpose}.intro`)}
    >
      <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="space-y-4">
        <ErrorSummary refused={refusal(lastResult)} formErrors={form.errors} fields={summary} />
        <ChoiceGroup
          legendSize="label"
          {...field.mfa_type}
          choices={types.map((type) => ({
            value: type,
            label: t(`mfaTypes.${type}.label`),
            description: t(`mfaTypes.${type}.description`),
          }))}
        />
        <SubmitButton pendingLabel={t("selectMfaType.pending")}>
          {t("selectMfaType.submit")}
        </SubmitButton>
      </Form>
      <BackToSignIn />
    </AuthCard>
  );
}
