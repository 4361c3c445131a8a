import { formatCount, formatPrice } from "~/catalog/money";
import type { Plan } from "~/catalog/plan";
import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import { PHYSICAL_SIM_DELIVERY, SHIPPING_PRICE, SIM_PRICE } from "~/catalog/terms";
import { formatData, TOPUP_AMOUNTS, type TopupAmount } from "~/topup/amounts";

/*
 * Phrases the help centre builds from the store's data (plans, top-ups, terms), so that an answer
 * states a price, a benefit or a time only as the data has it. Each reads well whatever the value:
 * a price of 0 is "sin costo", a list of one plan is not "los planes".
 */

// Made on first use: the first Intl object a page builds loads ICU's data (decision 0128).
let conjunction: Intl.ListFormat | undefined;

/** "1 hora", "2 horas". */
export function countText(value: number, one: string, many: string): string {
  return `${formatCount(value)} ${value === 1 ? one : many}`;
}

/** "A, B y C". */
export function listText(items: readonly string[]): string {
  conjunction ??= new Intl.ListFormat("es-MX", { type: "conjunction" });
  return conjunction.format(items);
}

/**
 * Whether something costs nothing. A function rather than `=== 0` at each use: the terms are
 * literal constants, and comparing a literal 50 with 0 would not compile once a price changes.
 */
export function isFree(amount: number): boolean {
  return amount === 0;
}

/** "sin costo", or the amount as the store shows it: "$50". */
export function priceText(amount: number): string {
  return isFree(amount) ? "sin costo" : formatPrice(amount);
}

/** What something costs, as a predicate: "no tiene costo", "cuesta $50". */
export function costsText(amount: number): string {
  return isFree(amount) ? "no tiene costo" : `cuesta ${formatPrice(amount)}`;
}

/** "envío gratis", or "envío de $99". */
export const SHIPPING_TEXT = isFree(SHIPPING_PRICE)
  ? "envío gratis"
  : `envío de ${formatPrice(SHIPPING_PRICE)}`;

/** What a physical SIM bought with a plan costs the customer, as a sentence. */
export const PHYSICAL_SIM_COST_TEXT =
  isFree(SIM_PRICE) && isFree(SHIPPING_PRICE)
    ? "La SIM física y el envío a todo México no tienen costo: pagas solo tu plan."
    : `La SIM física ${costsText(SIM_PRICE)} y el envío a todo México ${costsText(SHIPPING_PRICE)}.`;

const { cities, elsewhere } = PHYSICAL_SIM_DELIVERY;

/** "de 2 a 5 días hábiles" to cities. */
export const CITY_DELIVERY_TEXT = `de ${cities.minDays} a ${countText(cities.maxDays, "día hábil", "días hábiles")}`;

/** "hasta 8 días hábiles" elsewhere. */
export const ELSEWHERE_DELIVERY_TEXT = `hasta ${countText(elsewhere.maxDays, "día hábil", "días hábiles")}`;

/** The whole range, for a sentence: "en 2 a 8 días hábiles". */
export const DELIVERY_RANGE_TEXT = `en ${cities.minDays} a ${countText(elsewhere.maxDays, "día hábil", "días hábiles")}`;

/** "Conecta 50 y Conecta 100". */
export function planNames(plans: readonly Plan[]): string {
  return listText(plans.map((plan) => plan.name));
}

/** A verb agreeing with a list of plans: "se vende" for one, "se venden" for several. */
function verb(plans: readonly Plan[], one: string, many: string): string {
  return plans.length === 1 ? one : many;
}

/**
 * Which plans come with which SIM, from each plan's `simTypes`: a plan costs and gives the same
 * with either kind, but not every plan is sold with both.
 */
export function simAvailabilityText(plans: readonly Plan[] = PLAN_CATALOGUE): string {
  const only = (type: Plan["simTypes"][number]) =>
    plans.filter((plan) => plan.simTypes.length === 1 && plan.simTypes[0] === type);
  const esimOnly = only("esim");
  const physicalOnly = only("physical");
  if (esimOnly.length === 0 && physicalOnly.length === 0) {
    return "Todos los planes se venden con SIM física o con eSIM, al mismo precio y con los mismos beneficios.";
  }
  const exceptions = [
    ...(esimOnly.length
      ? [`${planNames(esimOnly)} ${verb(esimOnly, "se vende", "se venden")} solo con eSIM`]
      : []),
    ...(physicalOnly.length
      ? [
          `${planNames(physicalOnly)} ${verb(physicalOnly, "se vende", "se venden")} solo con SIM física`,
        ]
      : []),
  ];
  return `Un plan tiene el mismo precio y los mismos beneficios con SIM física o con eSIM, pero no todos se venden con las dos: ${listText(exceptions)}.`;
}

/** Which plans let the customer share data (hotspot), from each plan's `hotspot`. */
export function hotspotText(plans: readonly Plan[] = PLAN_CATALOGUE): string {
  const without = plans.filter((plan) => !plan.hotspot);
  if (without.length === 0) {
    return "Sí. Todos los planes te permiten compartir tus datos con tus otros dispositivos (punto de acceso o hotspot), sin costo extra, hasta agotar los GB de tu plan.";
  }
  const sharing = plans.filter((plan) => plan.hotspot);
  return `Sí, con ${planNames(sharing)}: ${verb(sharing, "te permite", "te permiten")} compartir tus datos con tus otros dispositivos (punto de acceso o hotspot), sin costo extra, hasta agotar los GB de tu plan. ${planNames(without)} no ${verb(without, "incluye", "incluyen")} compartir datos.`;
}

/** Plans whose calls and SMS do not cover the United States and Canada. */
export function mexicoOnlyPlans(plans: readonly Plan[] = PLAN_CATALOGUE): Plan[] {
  return plans.filter((plan) => !plan.coverage.usa || !plan.coverage.canada);
}

/** "WhatsApp ilimitado", "WhatsApp y Facebook ilimitados"; null when the plan has none. */
export function unlimitedSocialText(plan: Plan): string | null {
  if (!plan.unlimitedSocial || plan.socialNetworks.length === 0) return null;
  return `${listText(plan.socialNetworks)} ${plan.socialNetworks.length === 1 ? "ilimitado" : "ilimitados"}`;
}

/**
 * A top-up as the customer reads it: "$20: 200 MB por 1 día." or, for one that buys a plan,
 * "$50: lo mismo que el plan Conecta 50 (1 GB por 7 días con WhatsApp ilimitado)."
 */
export function topupText(offer: TopupAmount, plans: readonly Plan[] = PLAN_CATALOGUE): string {
  const data = formatData(offer.dataMb);
  const benefits = `${formatCount(data.value)} ${data.unit} por ${countText(offer.validityDays, "día", "días")}`;
  const plan = plans.find((candidate) => candidate.id === offer.planId);
  if (!plan) {
    const social = offer.unlimitedSocial ? " con redes sociales ilimitadas" : "";
    return `${formatPrice(offer.amount)}: ${benefits}${social}.`;
  }
  const social = unlimitedSocialText(plan);
  return `${formatPrice(offer.amount)}: lo mismo que el plan ${plan.name} (${benefits}${social ? ` con ${social}` : ""}).`;
}

/** Every top-up on offer, one line each. */
export const TOPUP_LINES = TOPUP_AMOUNTS.map((offer) => topupText(offer));
