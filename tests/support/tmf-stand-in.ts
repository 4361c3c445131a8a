import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { MB_PER_GB } from "~/topup/amounts";
import { planOffer, type PackageOffer, topupOffer } from "~/line/line";

/**
 * A local stand-in for an operator's BSS speaking TM Forum Open APIs v4, on an ephemeral
 * loopback port, for the tests of app/line/tmf.server.ts (decision 0088). It answers in the
 * shapes the v4 specifications document:
 *
 * - TMF637 `GET /tmf-api/productInventory/v4/product[/{id}]` (Product, productCharacteristic);
 * - TMF654 `GET …/prepayBalanceManagement/v4/bucket`, `GET|POST …/topupBalance[/{id}]`;
 * - TMF635 `GET …/usageManagement/v4/usage`;
 * - TMF622 `GET|POST …/productOrderingManagement/v4/productOrder[/{id}]`, an order going
 *   acknowledged → inProgress → completed over two polls; an item "add" makes a line, an item
 *   "modify" sets the product's characteristics it carries — and, as decision 0100 assumes of
 *   the operator's BSS, a `registrationFolio` set lifts a suspension whose `suspensionReason` is
 *   `noRegistration`, one emptied suspends an active line so;
 * - lists paged with offset/limit, X-Total-Count and X-Result-Count, 206 for a partial page;
 * - TMF630 Error bodies ({code, reason, message, status}) for 4xx/5xx;
 * - an OAuth 2.0 token endpoint (client credentials, Basic auth) with RFC 6749 §5.2 error bodies.
 *
 * Filters honoured: productCharacteristic.name/.value, product.id, paymentMethod.id,
 * ratedProductUsage.productRef.id, usageDate.gte/.lt, externalId (TMF630 dot notation), unless
 * `ignoreFilters` says to behave like a BSS that does not support them.
 *
 * What it cannot prove: that a real BSS honours these filters, names its characteristics and
 * buckets this way, says "unlimited" and a bucket's total as decision 0088 assumes, dedupes
 * nothing on its own, or pages the same way; its TLS, gateway, rate limits and clock.
 */
export type Json = Record<string, unknown>;

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | null;
  body: unknown;
}

/** A fault for the next `times` (default 1) requests matching method and path. */
export type Fault = { method?: string; path: string | RegExp; times?: number } & (
  | { kind: "status"; status: number; body?: unknown; contentType?: string }
  | { kind: "slow"; delayMs: number; afterProcessing?: boolean }
  | { kind: "malformed" }
  | { kind: "drop"; afterProcessing?: boolean }
);

export interface StandInLine {
  number: string;
  offerId?: string;
  status?: string;
  iccid?: string;
  /** More productCharacteristic entries (e.g. suspensionReason, registrationFolio). */
  characteristics?: Json[];
  /** Buckets of the line; default: from the plan (a 0 MXN wallet, data, unlimited calls…). */
  buckets?: Json[];
}

export interface TmfStandIn {
  readonly baseUrl: string;
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly requests: RecordedRequest[];
  readonly products: Json[];
  readonly buckets: Json[];
  readonly topups: Json[];
  readonly usage: Json[];
  readonly orders: Json[];
  /** Access tokens issued so far. */
  tokensIssued: number;
  /** expires_in of the tokens issued (seconds). */
  tokenLifetime: number;
  /** The most items a page holds, whatever limit the client asks. */
  pageSize: number;
  /** Answer every list unfiltered, like a BSS that ignores TMF630 filters. */
  ignoreFilters: boolean;
  /** How a product order ends after its polls. */
  orderOutcome: "completed" | "failed" | "stuck";
  /** A top-up answered "created", completed on its next GET (an asynchronous BSS). */
  asyncTopups: boolean;
  /** Every access token issued until now answers 401 from now on. */
  revokeTokens(): void;
  fault(fault: Fault): void;
  /** Adds a line: its product and its buckets; answers the product id. */
  addLine(line: StandInLine): string;
  addUsage(record: Json): void;
  close(): Promise<void>;
}

const BASE = "/tmf-api";
const PATHS = {
  product: `${BASE}/productInventory/v4/product`,
  bucket: `${BASE}/prepayBalanceManagement/v4/bucket`,
  topup: `${BASE}/prepayBalanceManagement/v4/topupBalance`,
  usage: `${BASE}/usageManagement/v4/usage`,
  order: `${BASE}/productOrderingManagement/v4/productOrder`,
  token: "/oauth2/token",
};
const DAY = 24 * 60 * 60 * 1000;

function tmfError(status: number, code: string, reason: string, message?: string): Json {
  return {
    code,
    reason,
    ...(message ? { message } : {}),
    status: String(status),
    "@type": "Error",
  };
}

/** The buckets a plan grants a line (decision 0088's conventions). */
export function planBuckets(productId: string, number: string, offer: PackageOffer): Json[] {
  const start = new Date();
  const validFor = {
    startDateTime: start.toISOString(),
    endDateTime: new Date(start.getTime() + offer.validityDays * DAY).toISOString(),
  };
  const common = (id: string) => ({
    id: `${productId}-${id}`,
    href: `${PATHS.bucket}/${productId}-${id}`,
    status: "active",
    product: [{ id: productId }],
    logicalResource: [{ id: number, name: "MSISDN" }],
    partyAccount: { id: `ACC-${number}` },
    "@type": "Bucket",
  });
  const allowance = (value: number | "unlimited", units: string) =>
    value === "unlimited" ? { amount: 0, units: "unlimited" } : { amount: value, units };
  const buckets: Json[] = [
    {
      ...common("wallet"),
      name: "Saldo",
      usageType: "monetary",
      remainingValue: { amount: 0, units: "MXN" },
      validFor: { startDateTime: validFor.startDateTime },
    },
    {
      ...common("data"),
      name: "Datos",
      usageType: "data",
      remainingValue: { amount: offer.dataMb / MB_PER_GB, units: "GB" },
      initialValue: { amount: offer.dataMb / MB_PER_GB, units: "GB" },
      validFor,
    },
  ];
  if (offer.unlimitedSocial) {
    buckets.push({
      ...common("social"),
      name: "Redes sociales",
      usageType: "data",
      serviceType: "socialNetworks",
      remainingValue: { amount: 0, units: "unlimited" },
      validFor,
    });
  }
  if (offer.minutes !== 0) {
    buckets.push({
      ...common("voice"),
      name: "Minutos",
      usageType: "voice",
      remainingValue: allowance(offer.minutes, "min"),
      ...(offer.minutes === "unlimited" ? {} : { initialValue: allowance(offer.minutes, "min") }),
      validFor,
    });
  }
  if (offer.sms !== 0) {
    buckets.push({
      ...common("sms"),
      name: "SMS",
      usageType: "sms",
      remainingValue: allowance(offer.sms, "sms"),
      ...(offer.sms === "unlimited" ? {} : { initialValue: allowance(offer.sms, "sms") }),
      validFor,
    });
  }
  return buckets;
}

function characteristicValue(item: Json, name: string): unknown {
  const list = Array.isArray(item.productCharacteristic) ? item.productCharacteristic : [];
  return (list as Json[]).find((entry) => entry.name === name)?.value;
}

export async function startTmfStandIn(): Promise<TmfStandIn> {
  const clientId = "tienda-conecta";
  const clientSecret = `secreto-${randomBytes(6).toString("hex")}`;
  const validTokens = new Map<string, number>();
  const faults: Array<Fault & { remaining: number }> = [];
  const timers = new Set<NodeJS.Timeout>();
  let nextId = 1;
  let nextNumber = 1;
  const id = (prefix: string) => `${prefix}-${String(nextId++).padStart(4, "0")}`;

  const standIn = {
    requests: [] as RecordedRequest[],
    products: [] as Json[],
    buckets: [] as Json[],
    topups: [] as Json[],
    usage: [] as Json[],
    orders: [] as Json[],
    tokensIssued: 0,
    tokenLifetime: 3600,
    pageSize: 100,
    ignoreFilters: false,
    orderOutcome: "completed" as TmfStandIn["orderOutcome"],
    asyncTopups: false,
  };

  function addLine(line: StandInLine): string {
    const productId = id("PRD");
    const offer = planOffer(line.offerId ?? "conecta-200");
    if (!offer) throw new Error(`no plan ${line.offerId}`);
    standIn.products.push({
      id: productId,
      href: `${PATHS.product}/${productId}`,
      name: offer.name,
      isBundle: false,
      status: line.status ?? "active",
      startDate: new Date(Date.now() - DAY).toISOString(),
      productOffering: { id: offer.offerId, name: offer.name, "@referredType": "ProductOffering" },
      productCharacteristic: [
        { name: "MSISDN", valueType: "string", value: line.number },
        { name: "ICCID", valueType: "string", value: line.iccid ?? "8952990000000000001" },
        { name: "paymentType", valueType: "string", value: "prepaid" },
        ...(line.characteristics ?? []),
      ],
      billingAccount: { id: `ACC-${line.number}` },
      "@type": "Product",
    });
    standIn.buckets.push(...(line.buckets ?? planBuckets(productId, line.number, offer)));
    return productId;
  }

  /** A paid top-up as the stand-in's BSS applies it: the amount buys the catalogue's package. */
  function applyTopup(topup: Json) {
    const productId = ((topup.product as Json[] | undefined)?.[0]?.id as string) ?? "";
    const offer = topupOffer(Number((topup.amount as Json).amount));
    if (!offer) return;
    const data = standIn.buckets.find(
      (bucket) =>
        bucket.usageType === "data" &&
        !bucket.serviceType &&
        (bucket.product as Json[]).some((ref) => ref.id === productId),
    );
    if (!data) return;
    const remaining = data.remainingValue as { amount: number; units: string };
    const initial = (data.initialValue ?? { ...remaining }) as { amount: number; units: string };
    remaining.amount += offer.dataMb / MB_PER_GB;
    initial.amount += offer.dataMb / MB_PER_GB;
    data.initialValue = initial;
    const validFor = data.validFor as { endDateTime: string };
    validFor.endDateTime = new Date(
      Math.max(Date.parse(validFor.endDateTime), Date.now()) + offer.validityDays * DAY,
    ).toISOString();
  }

  /** A "modify" item: the characteristics it names, set on the product; then the status rule. */
  function modifyProduct(item: Json) {
    const wanted = item.product as Json;
    const product = standIn.products.find((candidate) => candidate.id === wanted.id);
    if (!product) return false;
    const list = product.productCharacteristic as Json[];
    for (const entry of (wanted.productCharacteristic as Json[] | undefined) ?? []) {
      const index = list.findIndex((existing) => existing.name === entry.name);
      if (index >= 0) list[index] = entry;
      else list.push(entry);
    }
    const folio = characteristicValue(product, "registrationFolio");
    const reason = list.findIndex((entry) => entry.name === "suspensionReason");
    if (folio && product.status === "suspended" && reason >= 0) {
      if (list[reason].value === "noRegistration") {
        list.splice(reason, 1);
        product.status = "active";
      }
    } else if (folio === "" && product.status === "active") {
      list.push({ name: "suspensionReason", valueType: "string", value: "noRegistration" });
      product.status = "suspended";
    }
    return true;
  }

  function completeOrder(order: Json) {
    const item = (order.productOrderItem as Json[])[0];
    if (item.action === "modify") {
      const done = modifyProduct(item);
      item.state = done ? "completed" : "failed";
      order.state = done ? "completed" : "failed";
      order.completionDate = new Date().toISOString();
      return;
    }
    const product = item.product as Json;
    const offerId = (item.productOffering as Json).id as string;
    const number =
      (characteristicValue(product, "MSISDN") as string | undefined) ??
      `5598${String(nextNumber++).padStart(6, "0")}`;
    const productId = addLine({
      number,
      offerId,
      iccid: characteristicValue(product, "ICCID") as string,
    });
    // The order's item names the product it made; the number is read back from TMF637.
    item.product = { id: productId, href: `${PATHS.product}/${productId}` };
    item.state = "completed";
    order.state = "completed";
    order.completionDate = new Date().toISOString();
  }

  function matches(item: Json, query: Record<string, string>, path: string): boolean {
    if (standIn.ignoreFilters) return true;
    const has = (list: unknown, test: (entry: Json) => boolean) =>
      Array.isArray(list) && (list as Json[]).some(test);
    switch (path) {
      case PATHS.product: {
        const name = query["productCharacteristic.name"];
        const value = query["productCharacteristic.value"];
        return has(
          item.productCharacteristic,
          (entry) =>
            (name === undefined || entry.name === name) &&
            (value === undefined || entry.value === value),
        );
      }
      case PATHS.bucket:
        return (
          query["product.id"] === undefined ||
          has(item.product, (ref) => ref.id === query["product.id"])
        );
      case PATHS.topup:
        return (
          query["paymentMethod.id"] === undefined ||
          (item.paymentMethod as Json | undefined)?.id === query["paymentMethod.id"]
        );
      case PATHS.usage: {
        const product = query["ratedProductUsage.productRef.id"];
        const date = Date.parse(String(item.usageDate));
        return (
          (product === undefined ||
            has(item.ratedProductUsage, (rated) => (rated.productRef as Json)?.id === product)) &&
          (query["usageDate.gte"] === undefined || date >= Date.parse(query["usageDate.gte"])) &&
          (query["usageDate.lt"] === undefined || date < Date.parse(query["usageDate.lt"]))
        );
      }
      case PATHS.order:
        return query.externalId === undefined || item.externalId === query.externalId;
      default:
        return true;
    }
  }

  type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

  function page(items: Json[], query: Record<string, string>, path: string): Answer {
    const found = items.filter((item) => matches(item, query, path));
    const offset = Math.max(0, Number(query.offset ?? 0) || 0);
    const limit = Math.min(standIn.pageSize, Math.max(1, Number(query.limit ?? 10) || 10));
    const slice = found.slice(offset, offset + limit);
    return {
      status: slice.length < found.length ? 206 : 200,
      body: slice,
      headers: { "X-Total-Count": String(found.length), "X-Result-Count": String(slice.length) },
    };
  }

  function one(items: Json[], wanted: string, what: string): Answer {
    const item = items.find((candidate) => candidate.id === wanted);
    return item
      ? { status: 200, body: item }
      : { status: 404, body: tmfError(404, "60", "Not found", `No ${what} ${wanted}`) };
  }

  function token(request: IncomingMessage, body: string): Answer {
    const oauthError = (status: number, error: string, description: string): Answer => ({
      status,
      body: { error, error_description: description },
      headers: {
        "Cache-Control": "no-store",
        ...(status === 401 ? { "WWW-Authenticate": 'Basic realm="bss"' } : {}),
      },
    });
    const header = request.headers.authorization ?? "";
    const [scheme, encoded] = header.split(" ");
    if (scheme !== "Basic" || !encoded) {
      return oauthError(401, "invalid_client", "Client authentication failed");
    }
    const decoded = Buffer.from(encoded, "base64").toString("utf8");
    const separator = decoded.indexOf(":");
    const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, " "));
    const id = formDecode(decoded.slice(0, separator));
    const secret = formDecode(decoded.slice(separator + 1));
    if (id !== clientId || secret !== clientSecret) {
      return oauthError(401, "invalid_client", "Client authentication failed");
    }
    const form = new URLSearchParams(body);
    if (form.get("grant_type") !== "client_credentials") {
      return oauthError(400, "unsupported_grant_type", "Only client_credentials");
    }
    const accessToken = `at-${randomBytes(12).toString("hex")}`;
    validTokens.set(accessToken, Date.now() + standIn.tokenLifetime * 1000);
    standIn.tokensIssued++;
    return {
      status: 200,
      body: { access_token: accessToken, token_type: "Bearer", expires_in: standIn.tokenLifetime },
      headers: { "Cache-Control": "no-store", Pragma: "no-cache" },
    };
  }

  function authorised(request: IncomingMessage): boolean {
    const [scheme, value] = (request.headers.authorization ?? "").split(" ");
    const expiresAt = scheme === "Bearer" ? validTokens.get(value ?? "") : undefined;
    return expiresAt !== undefined && expiresAt > Date.now();
  }

  function handle(
    request: IncomingMessage,
    path: string,
    query: Record<string, string>,
    raw: string,
  ): Answer {
    const method = request.method ?? "GET";
    if (path === PATHS.token && method === "POST") return token(request, raw);
    if (!authorised(request)) {
      return { status: 401, body: tmfError(401, "41", "Unauthorized", "Invalid or expired token") };
    }
    let body: Json = {};
    if (method === "POST") {
      try {
        body = JSON.parse(raw) as Json;
      } catch {
        return { status: 400, body: tmfError(400, "20", "Invalid body", "Not JSON") };
      }
    }
    const [collection, wanted] = splitPath(path);
    if (method === "GET" && wanted !== undefined) {
      if (collection === PATHS.product) return one(standIn.products, wanted, "product");
      if (collection === PATHS.topup) {
        const found = one(standIn.topups, wanted, "topupBalance");
        const topup = found.body as Json;
        if (found.status === 200 && topup.status === "created") {
          applyTopup(topup);
          topup.status = "completed";
          topup.confirmationDate = new Date().toISOString();
        }
        return found;
      }
      if (collection === PATHS.order) {
        const found = one(standIn.orders, wanted, "productOrder");
        const order = found.body as Json;
        if (found.status === 200) advanceOrder(order);
        return found;
      }
    }
    if (method === "GET" && wanted === undefined) {
      if (path === PATHS.product) return page(standIn.products, query, path);
      if (path === PATHS.bucket) return page(standIn.buckets, query, path);
      if (path === PATHS.topup) return page(standIn.topups, query, path);
      if (path === PATHS.usage) return page(standIn.usage, query, path);
      if (path === PATHS.order) return page(standIn.orders, query, path);
    }
    if (method === "POST" && path === PATHS.topup) return createTopup(body);
    if (method === "POST" && path === PATHS.order) return createOrder(body);
    if (Object.values(PATHS).includes(collection)) {
      return { status: 405, body: tmfError(405, "50", "Method not allowed") };
    }
    return { status: 404, body: tmfError(404, "60", "Not found", `No resource at ${path}`) };
  }

  function createTopup(body: Json): Answer {
    const amount = body.amount as Json | undefined;
    const bucket = body.bucket as Json | undefined;
    const account = body.partyAccount as Json | undefined;
    if (
      typeof amount?.amount !== "number" ||
      typeof amount.units !== "string" ||
      typeof body.usageType !== "string" ||
      typeof bucket?.id !== "string" ||
      typeof account?.id !== "string"
    ) {
      return {
        status: 400,
        body: tmfError(
          400,
          "21",
          "Missing mandatory attribute",
          "amount, usageType, bucket, partyAccount",
        ),
      };
    }
    if (!standIn.buckets.some((candidate) => candidate.id === bucket.id)) {
      return {
        status: 404,
        body: tmfError(404, "60", "Bucket not found", `No bucket ${bucket.id}`),
      };
    }
    if (!topupOffer(amount.amount)) {
      return { status: 422, body: tmfError(422, "62", "Amount not allowed") };
    }
    const topupId = id("TU");
    const topup: Json = {
      ...body,
      id: topupId,
      href: `${PATHS.topup}/${topupId}`,
      status: standIn.asyncTopups ? "created" : "completed",
      requestedDate: new Date().toISOString(),
      ...(standIn.asyncTopups ? {} : { confirmationDate: new Date().toISOString() }),
    };
    standIn.topups.push(topup);
    if (!standIn.asyncTopups) applyTopup(topup);
    return { status: 201, body: topup, headers: { Location: `${PATHS.topup}/${topupId}` } };
  }

  function createOrder(body: Json): Answer {
    const items = body.productOrderItem;
    if (
      !Array.isArray(items) ||
      items.length === 0 ||
      !(items as Json[]).every(
        (item) => typeof item.id === "string" && typeof item.action === "string",
      )
    ) {
      return {
        status: 400,
        body: tmfError(400, "21", "Missing mandatory attribute", "productOrderItem"),
      };
    }
    const orderId = id("PO");
    const order: Json = {
      ...body,
      id: orderId,
      href: `${PATHS.order}/${orderId}`,
      orderDate: new Date().toISOString(),
      state: "acknowledged",
      productOrderItem: (items as Json[]).map((item) => ({ ...item, state: "acknowledged" })),
    };
    standIn.orders.push(order);
    return { status: 201, body: order, headers: { Location: `${PATHS.order}/${orderId}` } };
  }

  /** acknowledged → inProgress → completed (or failed), one step per poll. */
  function advanceOrder(order: Json) {
    if (order.state === "acknowledged") {
      order.state = "inProgress";
    } else if (order.state === "inProgress" && standIn.orderOutcome !== "stuck") {
      if (standIn.orderOutcome === "failed") order.state = "failed";
      else completeOrder(order);
    }
  }

  function splitPath(path: string): [string, string | undefined] {
    for (const collection of Object.values(PATHS)) {
      if (path === collection) return [collection, undefined];
      if (path.startsWith(`${collection}/`)) {
        return [collection, decodeURIComponent(path.slice(collection.length + 1))];
      }
    }
    return [path, undefined];
  }

  function takeFault(method: string, path: string) {
    const index = faults.findIndex(
      (fault) =>
        (fault.method === undefined || fault.method === method) &&
        (typeof fault.path === "string" ? fault.path === path : fault.path.test(path)),
    );
    if (index < 0) return null;
    const fault = faults[index];
    fault.remaining -= 1;
    if (fault.remaining <= 0) faults.splice(index, 1);
    return fault;
  }

  function send(response: ServerResponse, answer: Answer) {
    if (response.destroyed) return;
    response.writeHead(answer.status, {
      "Content-Type": "application/json;charset=utf-8",
      ...answer.headers,
    });
    response.end(answer.body === undefined ? "" : JSON.stringify(answer.body));
  }

  function later(delayMs: number, run: () => void) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, delayMs);
    timers.add(timer);
  }

  const server = createServer((request, response) => {
    let raw = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (raw += chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://stand-in");
      const query = Object.fromEntries(url.searchParams);
      const method = request.method ?? "GET";
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // The token request is a form, recorded as text.
      }
      standIn.requests.push({
        method,
        path: url.pathname,
        query,
        authorization: request.headers.authorization ?? null,
        body,
      });
      const fault = takeFault(method, url.pathname);
      const run = () => handle(request, url.pathname, query, raw);
      if (!fault) return send(response, run());
      switch (fault.kind) {
        case "status": {
          const text =
            typeof fault.body === "string" ? fault.body : JSON.stringify(fault.body ?? "");
          response.writeHead(fault.status, {
            "Content-Type": fault.contentType ?? "application/json;charset=utf-8",
          });
          response.end(fault.body === undefined ? "" : text);
          return;
        }
        case "malformed":
          response.writeHead(200, { "Content-Type": "application/json;charset=utf-8" });
          response.end('{"id": "PRD-1", "status": ');
          return;
        case "drop":
          if (fault.afterProcessing) run();
          request.socket.destroy();
          return;
        case "slow": {
          const answer = fault.afterProcessing ? run() : null;
          later(fault.delayMs, () => send(response, answer ?? run()));
          return;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return Object.assign(standIn, {
    baseUrl,
    tokenUrl: `${baseUrl}${PATHS.token}`,
    clientId,
    clientSecret,
    revokeTokens: () => validTokens.clear(),
    fault: (fault: Fault) => faults.push({ ...fault, remaining: fault.times ?? 1 }),
    addLine,
    addUsage: (record: Json) => standIn.usage.push(record),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
