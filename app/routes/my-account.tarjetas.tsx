import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Form,
  Link,
  useActionData,
  useLoaderData,
} from "react-router";
import { requireCustomer } from "~/auth/session.server";
import { linesPaidByCards } from "~/auto-topup/auto-topups.server";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { translateFormMessage } from "~/lib/form-messages";
import { titleMeta } from "~/lib/meta";
import { maskPhoneNumber } from "~/topup/phone";
import { loadSavedCards, submitSavedCards } from "~/payments/saved-cards-request.server";
import { TOPUP_PATH } from "~/topup/paths";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["commerce"] };

export const meta = titleMeta;

export { headers } from "~/lib/route-headers";

/**
 * The account's saved cards (decision 0119): brand, last four and expiry, which line each pays
 * automatically, and "Quitar" (a plain form per card).
 */
export async function loader({ request, context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { customer } = requireCustomer(context, request);
  const [cards, uses] = await Promise.all([
    loadSavedCards(context, customer),
    linesPaidByCards(context.db, customer.sub),
  ]);
  return {
    title: getFixedT("commerce")("savedCards.title"),
    cards: cards.map((card) => ({
      ...card,
      paysLines: (uses[card.id] ?? []).map(maskPhoneNumber),
    })),
  };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { customer } = requireCustomer(context, request);
  return submitSavedCards(context, request, customer);
}

export default function SavedCardsPage() {
  const { cards } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t } = useTranslation("commerce");
  // The form's only fields are hidden: whatever it was refused for is said at the top.
  const refused = Object.values(answer?.error ?? {}).flatMap((messages) => messages ?? [])[0];
  return (
    <>
      <PageHeader title={t("savedCards.heading")}>{t("savedCards.intro")}</PageHeader>
      {refused ? (
        <Alert className="mb-6 max-w-3xl" testId="saved-cards-error">
          {translateFormMessage(t, refused)}
        </Alert>
      ) : null}
      {cards.length ? (
        <ul className="grid max-w-3xl gap-4" data-testid="saved-cards">
          {cards.map((card) => {
            const name = t("payment.cardEndingIn", {
              brand: t(`payment.brands.${card.brand}`),
              last4: card.last4,
            });
            return (
              <li
                key={card.id}
                className="rounded-lg border border-slate-200 bg-white p-4"
                data-testid="saved-card"
              >
                <p className="text-lg font-semibold text-slate-900">{name}</p>
                <p className="text-slate-800">{t("savedCards.expires", { expiry: card.expiry })}</p>
                {card.paysLines.length ? (
                  <p className="mt-1 text-slate-800" data-testid="saved-card-auto-topups">
                    {t("savedCards.paysAutomatically", { lines: card.paysLines.join(", ") })}
                  </p>
                ) : null}
                <Form method="post" className="mt-3">
                  <input type="hidden" name="intent" value="quitar" />
                  <input type="hidden" name="card_id" value={card.id} />
                  <SubmitButton
                    variant="quiet"
                    width="blockOnPhone"
                    label={t("savedCards.removeLabel", { card: name })}
                    pendingLabel={t("savedCards.removing")}
                  >
                    {t("savedCards.remove")}
                  </SubmitButton>
                </Form>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="max-w-3xl text-slate-800" data-testid="saved-cards-empty">
          {t("savedCards.empty")}{" "}
          <Link to={TOPUP_PATH} className="font-medium text-secondary underline underline-offset-4">
            {t("savedCards.emptyLink")}
          </Link>
        </p>
      )}
      <p className="mt-10">
        <Link to="/my-account" className="font-medium text-secondary underline underline-offset-4">
          {t("savedCards.backToAccount")}
        </Link>
      </p>
    </>
  );
}
