import { isWellFormedIccid } from "~/esim/provisioning";
import { addDaysToDate, mexicoCityDate, mexicoCityDayStart } from "~/lib/mexico-city-days";
import { MB_PER_GB } from "~/topup/amounts";
import {
  type ActivateLineInput,
  type ApplyTopupInput,
  assertLineNumber,
  assertReference,
  type Bss,
  BssRefused,
  BssUnavailable,
  isBssRefused,
  isBssUnavailable,
  type RecordRegistrationInput,
} from "./bss";
import {
  assertDayRange,
  type DailyUsage,
  fillDays,
  type Line,
  type LineBalances,
  type LinePackage,
  type LineStatus,
  planOffer,
  type Quota,
  takesTopups,
  topupOffer,
} from "./line";
import {
  asString,
  createTmfClient,
  isObject,
  type JsonObject,
  quoted,
  sameName,
  type TmfClientOptions,
} from "./tmf-client.server";

/**
 * The BSS through TM Forum Open APIs, version 4 (decision 0088), over HTTPS with an OAuth 2.0
 * access token (client credentials, RFC 6749 §4.4):
 *
 * - TMF637 Product Inventory: the line is the product whose characteristic MSISDN is its number;
 *   its status, and its offering (the plan or package in force).
 * - TMF654 Prepay Balance Management: the product's buckets are its balances; `topupBalance`
 *   applies a paid top-up.
 * - TMF635 Usage Management: usage records of the product, added up by Mexico City day.
 * - TMF622 Product Ordering: a product order activates a new line (a SIM's ICCID, a plan, and the
 *   ported number for a port-in), polled until it is done; a "modify" order sets the line's
 *   registration folio (decision 0100), and the BSS suspends or lifts "sin registro" by it.
 *
 * What the specifications leave to each operator is fixed here as TMF_CONVENTIONS, written down
 * in decision 0088, to be confirmed with the operator: characteristic names, how a bucket says
 * "unlimited", its total, social-network data, and the references that make a top-up and an
 * activation idempotent. Only tried against the local stand-in (tests/support/tmf-stand-in.ts).
 * The HTTP calls, the access token and their failures are ./tmf-client.server.ts's.
 */
export interface TmfBssOptions extends TmfClientOptions {
  /** Pause between two polls of a product order or a top-up in progress. Default 1 s. */
  pollIntervalMs?: number;
  /** Polls before an order still in progress is left for a later call. Default 10. */
  pollAttempts?: number;
}

/**
 * What the store and the operator's BSS must agree on beyond the specifications (decision
 * 0088). Names compare case-insensitively.
 */
export const TMF_CONVENTIONS = {
  /** TMF637/622 productCharacteristic holding the line's number (10 digits, or 52 + 10). */
  msisdnCharacteristic: "MSISDN",
  /** TMF637/622 productCharacteristic holding the SIM's ICCID. */
  iccidCharacteristic: "ICCID",
  /** TMF622 productCharacteristic: true for a port-in (the number is then MSISDN's). */
  portInCharacteristic: "portIn",
  /**
   * TMF637 productCharacteristic saying why a "suspended" product is suspended; the value
   * `noRegistrationReason` is "sin registro" (issue 27, decision 0100): the line reaches only
   * emergency numbers and the operator, and is lifted once it has a registration.
   */
  suspensionReasonCharacteristic: "suspensionReason",
  noRegistrationReason: "noRegistration",
  /**
   * TMF637/622 productCharacteristic holding the folio (VIN-YYYY-NNNNNN) of the line's current
   * registration; empty: none. Set by a TMF622 "modify" order item (decision 0100).
   */
  registrationFolioCharacteristic: "registrationFolio",
  /** TMF654 bucket `remainingValue.units` of an unlimited allowance (its amount is ignored). */
  unlimitedUnits: "unlimited",
  /** TMF654 bucket extension: what the bucket held when granted (a Quantity, same units). */
  bucketTotalProperty: "initialValue",
  /** TMF654 data bucket extension naming the unlimited social networks' data. */
  bucketServiceProperty: "serviceType",
  socialNetworksService: "socialNetworks",
  /** TMF654 topupBalance extension carrying our top-up id (also sent as paymentMethod.id). */
  topupReferenceProperty: "externalId",
  /** TMF635 usageCharacteristic names. */
  usage: {
    msisdn: "msisdn",
    volume: "volume",
    unit: "unit",
    duration: "duration",
    events: "events",
  },
} as const;

/** Pages read at most for one list: past that, the BSS is not applying the filter. */
const MAX_PAGES = { product: 5, bucket: 5, topupBalance: 5, usage: 100, productOrder: 5 };

/** The ten digits of a number written 5512345678, 525512345678, +52 1 55…; null otherwise. */
export function nationalNumber(value: unknown): string | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const digits = String(value).replace(/[\s()+.-]/g, "");
  if (!/^\d+$/.test(digits)) return null;
  if (digits.length === 10) return digits;
  if (digits.length === 12 && digits.startsWith("52")) return digits.slice(2);
  if (digits.length === 13 && digits.startsWith("521")) return digits.slice(3);
  return null;
}

function characteristic(item: unknown, name: string): unknown {
  const list = isObject(item) ? item.productCharacteristic : undefined;
  if (!Array.isArray(list)) return undefined;
  return list.find((entry) => isObject(entry) && sameName(entry.name, name))?.value;
}

function hasNumber(product: JsonObject, number: string): boolean {
  if (nationalNumber(characteristic(product, TMF_CONVENTIONS.msisdnCharacteristic)) === number) {
    return true;
  }
  const resources = Array.isArray(product.realizingResource) ? product.realizingResource : [];
  return resources.some(
    (resource) =>
      isObject(resource) &&
      sameName(resource.name, TMF_CONVENTIONS.msisdnCharacteristic) &&
      nationalNumber(resource.value) === number,
  );
}

/**
 * TMF637 ProductStatusType to the store's statuses. The v4 and v5 files spell one value
 * "aborted " (trailing space): read trimmed. A product not yet in service is "porting" (the
 * only status the store has for a line on its way in).
 */
const PRODUCT_STATUS: Record<string, LineStatus> = {
  active: "active",
  pendingterminate: "active",
  suspended: "suspended",
  created: "porting",
  pendingactive: "porting",
  terminated: "terminated",
  cancelled: "terminated",
  aborted: "terminated",
};

/** Which of several products with one number is the line: in service first, then the newest. */
const STATUS_RANK: Record<LineStatus, number> = {
  active: 0,
  suspended: 0,
  unregistered: 0,
  porting: 1,
  terminated: 2,
};

const ORDER_DONE = "completed";
const ORDER_FAILED = new Set(["failed", "rejected", "cancelled", "partial"]);
const TOPUP_DONE = "completed";
const TOPUP_FAILED = new Set(["failed", "cancelled"]);

export function createTmfBss(options: TmfBssOptions): Bss {
  const { call, list } = createTmfClient(options);
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const pollAttempts = options.pollAttempts ?? 10;
  if (!Number.isInteger(pollAttempts) || pollAttempts < 1 || pollIntervalMs < 0) {
    throw new TypeError("polling needs at least one attempt and a pause of 0 ms or more");
  }
  const now = options.now ?? (() => new Date());

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  // -------------------------------------------------------------------------------------------
  // TMF637: the line's product
  // -------------------------------------------------------------------------------------------

  function lineStatus(product: JsonObject): LineStatus {
    const raw = typeof product.status === "string" ? product.status.trim().toLowerCase() : "";
    const status = PRODUCT_STATUS[raw];
    if (!status) {
      throw new BssUnavailable(`TMF637 product: unknown status ${quoted(raw)}`, {
        reason: "malformed",
      });
    }
    if (
      status === "suspended" &&
      sameName(
        characteristic(product, TMF_CONVENTIONS.suspensionReasonCharacteristic),
        TMF_CONVENTIONS.noRegistrationReason,
      )
    ) {
      return "unregistered";
    }
    return status;
  }

  async function findProduct(number: string): Promise<JsonObject | null> {
    const products = await list(
      "productInventory",
      "TMF637 GET product",
      "/product",
      {
        "productCharacteristic.name": TMF_CONVENTIONS.msisdnCharacteristic,
        "productCharacteristic.value": number,
      },
      MAX_PAGES.product,
    );
    // A BSS may ignore a filter it does not support, or match name and value in different
    // characteristics: only products that carry the number count.
    const candidates = products.filter((product) => hasNumber(product, number));
    if (candidates.length === 0) return null;
    const ranked = candidates
      .map((product) => ({ product, rank: STATUS_RANK[lineStatus(product)] }))
      .sort(
        (a, b) =>
          a.rank - b.rank ||
          String(b.product.startDate ?? "").localeCompare(String(a.product.startDate ?? "")),
      );
    return ranked[0].product;
  }

  function productId(product: JsonObject): string {
    const id = asString(product.id);
    if (!id) throw new BssUnavailable("TMF637 product: no id", { reason: "malformed" });
    return id;
  }

  // -------------------------------------------------------------------------------------------
  // TMF654: buckets and balances
  // -------------------------------------------------------------------------------------------

  async function productBuckets(product: JsonObject, number: string): Promise<JsonObject[]> {
    const id = productId(product);
    const buckets = await list(
      "prepayBalance",
      "TMF654 GET bucket",
      "/bucket",
      { "product.id": id },
      MAX_PAGES.bucket,
    );
    const at = now().getTime();
    return buckets.filter((bucket) => {
      const products = Array.isArray(bucket.product) ? bucket.product : [];
      const resources = Array.isArray(bucket.logicalResource) ? bucket.logicalResource : [];
      const ours =
        products.some((ref) => isObject(ref) && ref.id === id) ||
        resources.some((ref) => isObject(ref) && nationalNumber(ref.id) === number);
      if (!ours || sameName(bucket.status, "expired")) return false;
      const end = isObject(bucket.validFor) ? asString(bucket.validFor.endDateTime) : null;
      return end === null || !(Date.parse(end) <= at);
    });
  }

  function malformedBucket(what: string): BssUnavailable {
    return new BssUnavailable(`TMF654 bucket: ${what}`, { reason: "malformed" });
  }

  /** A Quantity's amount in the unit asked for, or "unlimited". */
  function quantity(
    value: unknown,
    kind: "monetary" | "data" | "voice" | "sms",
  ): number | "unlimited" | null {
    if (value === undefined || value === null) return null;
    if (!isObject(value)) throw malformedBucket("a quantity is not an object");
    const units = typeof value.units === "string" ? value.units.trim().toLowerCase() : "";
    if (units === TMF_CONVENTIONS.unlimitedUnits) return "unlimited";
    const amount = value.amount;
    if (typeof amount !== "number" || !Number.isFinite(amount) || amount < 0) {
      throw malformedBucket("a quantity's amount is not a number of 0 or more");
    }
    const factor = UNIT_FACTORS[kind][units];
    if (factor === undefined) throw malformedBucket(`${kind} in unknown units ${quoted(units)}`);
    return amount * factor;
  }

  function balances(buckets: JsonObject[]): LineBalances {
    let moneyMxn = 0;
    const sums = {
      data: null as Sum | null,
      social: null as Sum | null,
      voice: null as Sum | null,
      sms: null as Sum | null,
    };
    for (const bucket of buckets) {
      const usageType = typeof bucket.usageType === "string" ? bucket.usageType.toLowerCase() : "";
      if (usageType === "monetary") {
        const amount = quantity(bucket.remainingValue, "monetary");
        if (typeof amount !== "number") throw malformedBucket("a monetary bucket without amount");
        moneyMxn += amount;
        continue;
      }
      if (usageType !== "data" && usageType !== "voice" && usageType !== "sms") continue;
      const social =
        usageType === "data" &&
        sameName(
          bucket[TMF_CONVENTIONS.bucketServiceProperty],
          TMF_CONVENTIONS.socialNetworksService,
        );
      const key = social ? "social" : usageType;
      const remaining = quantity(bucket.remainingValue, usageType);
      if (remaining === null) throw malformedBucket("a bucket without remainingValue");
      const total = quantity(bucket[TMF_CONVENTIONS.bucketTotalProperty], usageType);
      sums[key] = addToSum(sums[key], remaining, total === null ? remaining : total);
    }
    if (sums.data === "unlimited") {
      throw malformedBucket("unlimited general data (the store has no such package)");
    }
    return {
      moneyMxn: round(moneyMxn),
      dataMb: sums.data,
      socialDataMb: sums.social,
      minutes: sums.voice,
      sms: sums.sms,
    };
  }

  function linePackage(product: JsonObject, buckets: JsonObject[]): LinePackage | null {
    let startsAt: string | null = null;
    let endsAt: string | null = null;
    for (const bucket of buckets) {
      if (sameName(bucket.usageType, "monetary") || !isObject(bucket.validFor)) continue;
      const start = asString(bucket.validFor.startDateTime);
      const end = asString(bucket.validFor.endDateTime);
      if (end === null) continue;
      if (Number.isNaN(Date.parse(end)) || (start !== null && Number.isNaN(Date.parse(start)))) {
        throw malformedBucket("validFor is not a date-time");
      }
      if (endsAt === null || Date.parse(end) > Date.parse(endsAt)) endsAt = end;
      if (start !== null && (startsAt === null || Date.parse(start) < Date.parse(startsAt))) {
        startsAt = start;
      }
    }
    if (endsAt === null) return null;
    const offering = isObject(product.productOffering) ? product.productOffering : {};
    const offerId = asString(offering.id) ?? productId(product);
    return {
      offerId,
      name: asString(offering.name) ?? asString(product.name) ?? offerId,
      startsAt: new Date(startsAt ?? asString(product.startDate) ?? endsAt).toISOString(),
      endsAt: new Date(endsAt).toISOString(),
    };
  }

  async function findLine(number: string): Promise<Line | null> {
    assertLineNumber(number);
    const product = await findProduct(number);
    if (!product) return null;
    const status = lineStatus(product);
    const buckets = await productBuckets(product, number);
    return {
      number,
      status,
      package: linePackage(product, buckets),
      balances: balances(buckets),
    };
  }

  // -------------------------------------------------------------------------------------------
  // TMF635: usage by day
  // -------------------------------------------------------------------------------------------

  function usageNumber(record: JsonObject, name: string): number | null {
    const list = Array.isArray(record.usageCharacteristic) ? record.usageCharacteristic : [];
    const entry = list.find((item) => isObject(item) && sameName(item.name, name));
    if (!isObject(entry)) return null;
    const value = typeof entry.value === "string" ? Number(entry.value) : entry.value;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new BssUnavailable(`TMF635 usage: ${name} is not a number of 0 or more`, {
        reason: "malformed",
      });
    }
    return value;
  }

  function usageText(record: JsonObject, name: string): string {
    const list = Array.isArray(record.usageCharacteristic) ? record.usageCharacteristic : [];
    const entry = list.find((item) => isObject(item) && sameName(item.name, name));
    return isObject(entry) && typeof entry.value === "string"
      ? entry.value.trim().toLowerCase()
      : "";
  }

  function usageOfProduct(record: JsonObject, id: string, number: string): boolean {
    const rated = Array.isArray(record.ratedProductUsage) ? record.ratedProductUsage : [];
    return (
      rated.some(
        (item) => isObject(item) && isObject(item.productRef) && item.productRef.id === id,
      ) ||
      nationalNumber(
        (Array.isArray(record.usageCharacteristic) ? record.usageCharacteristic : []).find(
          (item) => isObject(item) && sameName(item.name, TMF_CONVENTIONS.usage.msisdn),
        )?.value,
      ) === number
    );
  }

  async function usageByDay(number: string, from: string, to: string): Promise<DailyUsage[]> {
    assertLineNumber(number);
    assertDayRange(from, to);
    const product = await findProduct(number);
    if (!product) throw unknownNumber("TMF637 GET product");
    const id = productId(product);
    const records = await list(
      "usage",
      "TMF635 GET usage",
      "/usage",
      {
        "ratedProductUsage.productRef.id": id,
        "usageDate.gte": mexicoCityDayStart(from),
        "usageDate.lt": mexicoCityDayStart(addDaysToDate(to, 1)),
      },
      MAX_PAGES.usage,
    );
    const days = new Map<string, DailyUsage>();
    const { usage: names } = TMF_CONVENTIONS;
    for (const record of records) {
      if (!usageOfProduct(record, id, number)) continue;
      const date = asString(record.usageDate);
      if (date === null || Number.isNaN(Date.parse(date))) {
        throw new BssUnavailable("TMF635 usage: usageDate is not a date-time", {
          reason: "malformed",
        });
      }
      const day = mexicoCityDate(date);
      if (day < from || day > to) continue;
      const entry = days.get(day) ?? { day, dataMb: 0, minutes: 0, sms: 0 };
      const type = typeof record.usageType === "string" ? record.usageType.toLowerCase() : "";
      if (type === "data") {
        const volume = usageNumber(record, names.volume) ?? 0;
        const factor = UNIT_FACTORS.data[usageText(record, names.unit) || "mb"];
        if (factor === undefined) {
          throw new BssUnavailable("TMF635 usage: data in unknown units", { reason: "malformed" });
        }
        entry.dataMb += volume * factor;
      } else if (type === "voice") {
        const duration = usageNumber(record, names.duration) ?? 0;
        const factor = UNIT_FACTORS.voice[usageText(record, names.unit) || "s"];
        if (factor === undefined) {
          throw new BssUnavailable("TMF635 usage: voice in unknown units", {
            reason: "malformed",
          });
        }
        entry.minutes += duration * factor;
      } else if (type === "sms") {
        entry.sms += usageNumber(record, names.events) ?? 1;
      } else {
        continue;
      }
      days.set(day, entry);
    }
    return fillDays(
      from,
      to,
      [...days.values()].map((entry) => ({
        day: entry.day,
        dataMb: round(entry.dataMb),
        minutes: round(entry.minutes),
        sms: round(entry.sms),
      })),
    );
  }

  // -------------------------------------------------------------------------------------------
  // TMF654: applying a top-up once
  // -------------------------------------------------------------------------------------------

  function unknownNumber(what: string): BssRefused {
    return new BssRefused(`${what}: the BSS does not know the number`, {
      reason: "unknown-number",
    });
  }

  async function findTopup(topupId: string): Promise<JsonObject | null> {
    const found = await list(
      "prepayBalance",
      "TMF654 GET topupBalance",
      "/topupBalance",
      { "paymentMethod.id": topupId },
      MAX_PAGES.topupBalance,
    );
    const ours = found.filter(
      (item) =>
        (isObject(item.paymentMethod) && item.paymentMethod.id === topupId) ||
        item[TMF_CONVENTIONS.topupReferenceProperty] === topupId,
    );
    // One that failed or was cancelled did not apply: a new one may.
    return ours.find((item) => !TOPUP_FAILED.has(String(item.status).toLowerCase())) ?? null;
  }

  /** A topupBalance to its outcome: applied (its id), refused, or still in progress. */
  async function settleTopup(item: JsonObject, input: ApplyTopupInput) {
    const what = "TMF654 topupBalance";
    const id = asString(item.id);
    if (!id) throw new BssUnavailable(`${what}: no id`, { reason: "malformed" });
    const amount = isObject(item.amount) ? item.amount.amount : undefined;
    if (amount !== undefined && amount !== input.amount) {
      throw new BssRefused(`${what}: the top-up id was used for another amount`, {
        reason: "reference-reused",
      });
    }
    let current = item;
    for (let attempt = 0; ; attempt++) {
      const status = typeof current.status === "string" ? current.status.toLowerCase() : "";
      if (status === TOPUP_DONE) return { reference: id };
      if (TOPUP_FAILED.has(status)) {
        throw new BssRefused(`${what}: ${status}`, { reason: "rejected" });
      }
      if (status !== "created") {
        throw new BssUnavailable(`${what}: unknown status ${quoted(status)}`, {
          reason: "malformed",
        });
      }
      if (attempt >= pollAttempts) {
        throw new BssUnavailable(`${what}: still in progress`, { reason: "pending" });
      }
      await sleep(pollIntervalMs);
      const answer = await call("prepayBalance", `${what} GET`, {
        method: "GET",
        path: `/topupBalance/${encodeURIComponent(id)}`,
      });
      if (!isObject(answer.body)) {
        throw new BssUnavailable(`${what}: the answer is not an object`, { reason: "malformed" });
      }
      current = answer.body;
    }
  }

  async function applyTopup(input: ApplyTopupInput): Promise<{ reference: string }> {
    assertReference(input.topupId, "topupId");
    assertLineNumber(input.number);
    const offer = topupOffer(input.amount);
    if (!offer || offer.offerId !== input.offerId) {
      throw new BssRefused(`top-up: no offer ${input.offerId} for ${input.amount} pesos`, {
        reason: "unknown-offer",
      });
    }

    // A call that failed may have applied it: never post before looking.
    const earlier = await findTopup(input.topupId);
    if (earlier) return settleTopup(earlier, input);

    const product = await findProduct(input.number);
    if (!product) throw unknownNumber("TMF637 GET product");
    const status = lineStatus(product);
    // An unregistered line keeps the package it was paid for, for when it is registered.
    if (!takesTopups(status)) {
      throw new BssRefused(`TMF637 product: the line is ${status}`, { reason: "line-not-active" });
    }
    const buckets = await productBuckets(product, input.number);
    const wallet = buckets.find(
      (bucket) =>
        sameName(bucket.usageType, "monetary") &&
        isObject(bucket.remainingValue) &&
        sameName(bucket.remainingValue.units, "MXN"),
    );
    const walletId = wallet ? asString(wallet.id) : null;
    const billingAccount = isObject(product.billingAccount) ? product.billingAccount : null;
    const accountId =
      (wallet && isObject(wallet.partyAccount) ? asString(wallet.partyAccount.id) : null) ??
      (billingAccount ? asString(billingAccount.id) : null);
    if (!walletId || !accountId) {
      // TMF654 requires both; the line has no MXN wallet to credit.
      throw new BssRefused("TMF654 bucket: the line has no MXN bucket with its account", {
        reason: "rejected",
      });
    }
    const body = {
      "@type": "TopupBalance",
      amount: { amount: input.amount, units: "MXN" },
      usageType: "monetary",
      bucket: { id: walletId },
      partyAccount: { id: accountId },
      product: [{ id: productId(product) }],
      logicalResource: [{ id: input.number, name: TMF_CONVENTIONS.msisdnCharacteristic }],
      channel: { id: "WEB", name: "Tienda en línea" },
      paymentMethod: { id: input.topupId, name: "Tienda en línea" },
      [TMF_CONVENTIONS.topupReferenceProperty]: input.topupId,
      description: `Recarga ${input.amount} MXN (${offer.offerId})`,
      isAutoTopup: false,
    };

    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await call("prepayBalance", "TMF654 POST topupBalance", {
          method: "POST",
          path: "/topupBalance",
          body,
        });
        if (!isObject(answer.body)) {
          throw new BssUnavailable("TMF654 POST topupBalance: the answer is not an object", {
            reason: "malformed",
          });
        }
        return await settleTopup(answer.body, input);
      } catch (error) {
        const conflict = isBssRefused(error) && error.httpStatus === 409;
        const retriable =
          isBssUnavailable(error) && error.reason !== "unauthorized" && error.reason !== "pending";
        if (!retriable && !conflict) throw error;
        // The first may have gone through: look before posting again.
        const applied = await findTopup(input.topupId);
        if (applied) return settleTopup(applied, input);
        if (attempt >= 1 || conflict) throw error;
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // TMF622: activating a line with a product order
  // -------------------------------------------------------------------------------------------

  function orderExternalId(order: JsonObject): string | null {
    if (typeof order.externalId === "string") return order.externalId;
    // v5: an array of ExternalIdentifier.
    if (Array.isArray(order.externalId)) {
      const first = order.externalId.find((entry) => isObject(entry) && asString(entry.id));
      return isObject(first) ? asString(first.id) : null;
    }
    return null;
  }

  async function findOrder(externalId: string): Promise<JsonObject | null> {
    const orders = await list(
      "productOrdering",
      "TMF622 GET productOrder",
      "/productOrder",
      { externalId },
      MAX_PAGES.productOrder,
    );
    return orders.find((order) => orderExternalId(order) === externalId) ?? null;
  }

  async function orderedNumber(order: JsonObject, input: ActivateLineInput): Promise<string> {
    const what = "TMF622 productOrder";
    const items = Array.isArray(order.productOrderItem) ? order.productOrderItem : [];
    let number: string | null = null;
    for (const item of items) {
      if (!isObject(item) || !isObject(item.product)) continue;
      number = nationalNumber(characteristic(item.product, TMF_CONVENTIONS.msisdnCharacteristic));
      if (!number && asString(item.product.id)) {
        const answer = await call("productInventory", "TMF637 GET product/{id}", {
          method: "GET",
          path: `/product/${encodeURIComponent(String(item.product.id))}`,
        });
        number = isObject(answer.body)
          ? nationalNumber(characteristic(answer.body, TMF_CONVENTIONS.msisdnCharacteristic))
          : null;
      }
      if (number) break;
    }
    if (!number) {
      throw new BssUnavailable(`${what}: completed without the line's number`, {
        reason: "malformed",
      });
    }
    if (input.number && number !== input.number) {
      throw new BssUnavailable(`${what}: completed with another number than the ported one`, {
        reason: "malformed",
      });
    }
    return number;
  }

  /** A product order to its outcome, polling while it is in progress; `done` reads a completed one. */
  async function settleOrder<T>(
    order: JsonObject,
    done: (completed: JsonObject) => Promise<T>,
  ): Promise<T> {
    const what = "TMF622 productOrder";
    const id = asString(order.id);
    if (!id) throw new BssUnavailable(`${what}: no id`, { reason: "malformed" });
    let current = order;
    for (let attempt = 0; ; attempt++) {
      const state = typeof current.state === "string" ? current.state.toLowerCase() : "";
      if (state === ORDER_DONE) return done(current);
      if (ORDER_FAILED.has(state)) {
        throw new BssRefused(`${what}: ${state}`, { reason: "rejected" });
      }
      if (state === "") throw new BssUnavailable(`${what}: no state`, { reason: "malformed" });
      if (attempt >= pollAttempts) {
        throw new BssUnavailable(`${what}: still ${quoted(state)}`, { reason: "pending" });
      }
      await sleep(pollIntervalMs);
      const answer = await call("productOrdering", `${what} GET`, {
        method: "GET",
        path: `/productOrder/${encodeURIComponent(id)}`,
      });
      if (!isObject(answer.body)) {
        throw new BssUnavailable(`${what}: the answer is not an object`, { reason: "malformed" });
      }
      current = answer.body;
    }
  }

  async function activateLine(input: ActivateLineInput): Promise<{ number: string }> {
    assertReference(input.externalId, "externalId");
    if (input.number !== undefined) assertLineNumber(input.number);
    if (typeof input.iccid !== "string" || !isWellFormedIccid(input.iccid)) {
      throw new BssRefused("activation: not a valid ICCID", { reason: "invalid-iccid" });
    }
    const plan = planOffer(input.offerId);
    if (!plan) {
      throw new BssRefused(`activation: no plan ${input.offerId}`, { reason: "unknown-offer" });
    }

    const activated = async (order: JsonObject) => ({ number: await orderedNumber(order, input) });
    const earlier = await findOrder(input.externalId);
    if (earlier) return settleOrder(earlier, activated);

    const characteristics = [
      { name: TMF_CONVENTIONS.iccidCharacteristic, valueType: "string", value: input.iccid },
      { name: TMF_CONVENTIONS.portInCharacteristic, valueType: "boolean", value: !!input.number },
      ...(input.number
        ? [{ name: TMF_CONVENTIONS.msisdnCharacteristic, valueType: "string", value: input.number }]
        : []),
    ];
    const body = {
      "@type": "ProductOrder",
      externalId: input.externalId,
      category: "B2C mobile prepaid",
      description: input.number ? "Portabilidad a prepago" : "Alta de línea prepago",
      channel: [{ id: "WEB", name: "Tienda en línea", role: "orderCapture" }],
      productOrderItem: [
        {
          "@type": "ProductOrderItem",
          id: "1",
          action: "add",
          quantity: 1,
          productOffering: { id: plan.offerId, name: plan.name },
          product: { "@type": "Product", isBundle: false, productCharacteristic: characteristics },
        },
      ],
    };

    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await call("productOrdering", "TMF622 POST productOrder", {
          method: "POST",
          path: "/productOrder",
          body,
        });
        if (!isObject(answer.body)) {
          throw new BssUnavailable("TMF622 POST productOrder: the answer is not an object", {
            reason: "malformed",
          });
        }
        return await settleOrder(answer.body, activated);
      } catch (error) {
        const conflict = isBssRefused(error) && error.httpStatus === 409;
        const retriable =
          isBssUnavailable(error) && error.reason !== "unauthorized" && error.reason !== "pending";
        if (!retriable && !conflict) throw error;
        // The first may have been taken: look before ordering again.
        const placed = await findOrder(input.externalId);
        if (placed) return settleOrder(placed, activated);
        if (attempt >= 1 || conflict) throw error;
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // TMF622: the line's registration, a "modify" product order (decision 0100)
  // -------------------------------------------------------------------------------------------

  /** The product already says what the store would tell it: nothing to order. */
  function registrationRecorded(product: JsonObject, folio: string | null): boolean {
    const recorded = asString(
      characteristic(product, TMF_CONVENTIONS.registrationFolioCharacteristic),
    );
    const status = lineStatus(product);
    if (folio === null) return !recorded && status !== "active";
    return recorded === folio && status !== "unregistered";
  }

  async function recordRegistration(input: RecordRegistrationInput): Promise<void> {
    assertLineNumber(input.number);
    if (input.folio !== null) assertReference(input.folio, "folio");
    const product = await findProduct(input.number);
    if (!product) throw unknownNumber("TMF637 GET product");
    // Setting a characteristic is the same however often it is done; looking first spares the
    // BSS an order (and the operator a list of them) when a job runs again.
    if (registrationRecorded(product, input.folio)) return;
    const id = productId(product);
    const body = {
      "@type": "ProductOrder",
      category: "B2C mobile prepaid",
      description: input.folio
        ? "Registro del titular de la línea"
        : "Línea sin titular registrado: suspensión",
      channel: [{ id: "WEB", name: "Tienda en línea", role: "orderCapture" }],
      productOrderItem: [
        {
          "@type": "ProductOrderItem",
          id: "1",
          action: "modify",
          quantity: 1,
          product: {
            "@type": "Product",
            id,
            ...(asString(product.href) ? { href: asString(product.href) } : {}),
            productCharacteristic: [
              {
                name: TMF_CONVENTIONS.registrationFolioCharacteristic,
                valueType: "string",
                value: input.folio ?? "",
              },
            ],
          },
        },
      ],
    };
    const completed = async () => undefined;
    try {
      const answer = await call("productOrdering", "TMF622 POST productOrder", {
        method: "POST",
        path: "/productOrder",
        body,
      });
      if (!isObject(answer.body)) {
        throw new BssUnavailable("TMF622 POST productOrder: the answer is not an object", {
          reason: "malformed",
        });
      }
      await settleOrder(answer.body, completed);
    } catch (error) {
      if (!isBssUnavailable(error) || error.reason === "unauthorized") throw error;
      // The order may have gone through: the product says so, or the job tries again later.
      const after = await findProduct(input.number);
      if (after && registrationRecorded(after, input.folio)) return;
      throw error;
    }
  }

  return { name: "tmf", findLine, usageByDay, applyTopup, activateLine, recordRegistration };
}

/** A sum of quotas of one kind; unlimited wins. */
type Sum = Quota | "unlimited";

function addToSum(sum: Sum | null, remaining: number | "unlimited", total: number | "unlimited") {
  if (sum === "unlimited" || remaining === "unlimited" || total === "unlimited") {
    return "unlimited" as const;
  }
  const before = sum ?? { remaining: 0, total: 0 };
  return {
    remaining: round(before.remaining + remaining),
    total: round(before.total + Math.max(total, remaining)),
  };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Units a Quantity or a usage record may come in, to the store's (MB, minutes, messages, MXN). */
const UNIT_FACTORS: Record<"monetary" | "data" | "voice" | "sms", Record<string, number>> = {
  monetary: { mxn: 1 },
  data: {
    b: 1 / (MB_PER_GB * MB_PER_GB),
    byte: 1 / (MB_PER_GB * MB_PER_GB),
    bytes: 1 / (MB_PER_GB * MB_PER_GB),
    octets: 1 / (MB_PER_GB * MB_PER_GB),
    kb: 1 / MB_PER_GB,
    mb: 1,
    gb: MB_PER_GB,
    tb: MB_PER_GB * MB_PER_GB,
  },
  voice: { s: 1 / 60, sec: 1 / 60, seconds: 1 / 60, min: 1, mins: 1, minutes: 1 },
  sms: { sms: 1, msg: 1, messages: 1, events: 1 },
};
