import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Form,
  useActionData,
  useLoaderData,
} from "react-router";
import { useTranslation } from "~/i18n/react";
import { authT } from "~/auth/flow.server";
import { selectOfferedMfaTypeSchema } from "~/auth/schemas";
import { AuthCard, BackToSignIn } from "~/components/auth/form-parts";
import { SubmitButton } from "~/components/ui/button";
import { ChoiceGroup } from "~/components/ui/choice-group";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { labelFields } from "~/components/ui/labelled-fields";
import { titleMeta } from "~/lib/meta";
import { pendingChoice, submitSelectMfaType } from "~/auth/select-mfa-type-request.server";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

export function loader({ context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { purpose, types } = pendingChoice(context);
  return { title: authT()(`selectMfaType.${purpose}.title`), purpose, types };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitSelectMfaType(context, request);
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
