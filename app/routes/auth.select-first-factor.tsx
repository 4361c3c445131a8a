import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type * as z from "zod";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Form,
  useActionData,
  useLoaderData,
} from "react-router";
import { useTranslation } from "~/i18n/react";
import { authT } from "~/auth/flow.server";
import { firstFactorSchema } from "~/auth/schemas";
import {
  offeredFirstFactors,
  pendingFirstFactor,
  submitFirstFactor,
} from "~/auth/select-first-factor-request.server";
import { AuthCard, BackToSignIn } from "~/components/auth/form-parts";
import { PasskeyButton } from "~/components/auth/passkey-button";
import { SubmitButton } from "~/components/ui/button";
import { ChoiceGroup } from "~/components/ui/choice-group";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { titleMeta } from "~/lib/meta";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

export function loader({ context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const offered = offeredFirstFactors(pendingFirstFactor(context), context.config.PASSKEYS_ENABLED);
  return {
    title: authT()("selectFirstFactor.title"),
    passkey: offered.includes("passkey"),
    factors: offered.filter((choice) => choice !== "passkey"),
  };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitFirstFactor(context, request);
}

export default function SelectFirstFactorPage() {
  const { t } = useTranslation("auth");
  const { passkey, factors } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // The passkey ceremony's answer goes to its own fetcher, never to this form.
  const lastResult =
    actionData && !("passkeyRequestOptions" in actionData) ? actionData : undefined;
  const [form, fields] = useForm<z.input<ReturnType<typeof firstFactorSchema>>>({
    lastResult,
    defaultValue: { factor: factors[0] },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: firstFactorSchema(factors) }),
  });
  const { field, summary } = labelFields(fields, {
    factor: t("selectFirstFactor.legend"),
    password: t("fields.password"),
  });
  return (
    <AuthCard title={t("selectFirstFactor.heading")} intro={t("selectFirstFactor.intro")}>
      {passkey ? (
        <div className="mb-6">
          <PasskeyButton
            ceremony="get"
            variant="primary"
            label={t("passkeys.signIn")}
            pendingLabel={t("passkeys.signingIn")}
          />
        </div>
      ) : null}
      {factors.length ? (
        <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="space-y-4">
          <ErrorSummary refused={refusal(lastResult)} formErrors={form.errors} fields={summary} />
          <ChoiceGroup
            legendSize="label"
            {...field.factor}
            choices={factors.map((factor) => ({
              value: factor,
              label: t(`selectFirstFactor.factors.${factor}`),
            }))}
          />
          <Field
            {...field.password}
            type="password"
            autoComplete="current-password"
            hint={t("selectFirstFactor.passwordHint")}
          />
          <SubmitButton pendingLabel={t("selectFirstFactor.pending")}>
            {t("selectFirstFactor.submit")}
          </SubmitButton>
        </Form>
      ) : null}
      <BackToSignIn />
    </AuthCard>
  );
}
