import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { luhnCheckDigit } from "~/lib/luhn";
import { startTmfStandIn, type Json, type TmfStandIn } from "../../tests/support/tmf-stand-in";
import {
  type Bss,
  type BssRefusalReason,
  type BssRefused,
  type BssUnavailable,
  type BssUnavailableReason,
  isBssRefused,
  isBssUnavailable,
} from "./bss";
import { topupOffer } from "./line";
import { createTmfBss, nationalNumber, type TmfBssOptions } from "./tmf.server";

const NUMBER = "5512345678";
const PRODUCT_PATH = "/tmf-api/productInventory/v4/product";
const BUCKET_PATH = "/tmf-api/prepayBalanceManagement/v4/bucket";
const TOPUP_PATH = "/tmf-api/prepayBalanceManagement/v4/topupBalance";
const USAGE_PATH = "/tmf-api/usageManagement/v4/usage";
const ORDER_PATH = "/tmf-api/productOrderingManagement/v4/productOrder";
const TOKEN_PATH = "/oauth2/token";

let standIn: TmfStandIn;
let clock: Date;

beforeEach(async () => {
  standIn = await startTmfStandIn();
  clock = new Date();
});
afterEach(async () => {
  await standIn.close();
});

function bss(options: Partial<TmfBssOptions> = {}): Bss {
  return createTmfBss({
    baseUrl: standIn.baseUrl,
    tokenUrl: standIn.tokenUrl,
    clientId: standIn.clientId,
    clientSecret: standIn.clientSecret,
    timeoutMs: 1_000,
    pollIntervalMs: 1,
    pollAttempts: 4,
    now: () => clock,
    ...options,
  });
}

function requestsTo(path: string, method?: string) {
  return standIn.requests.filter(
    (request) => request.path === path && (method === undefined || request.method === method),
  );
}

/** The failure of `attempt`, checked to say nothing secret. */
async function failure(attempt: Promise<unknown>): Promise<Error> {
  const error = await attempt.then(
    () => null,
    (failed: unknown) => failed,
  );
  if (!(error instanceof Error)) throw new Error("the call succeeded");
  const tokens = standIn.requests
    .map((request) => request.authorization?.split(" ")[1])
    .filter((value): value is string => !!value);
  for (const secret of [standIn.clientSecret, ...tokens]) {
    expect(error.message).not.toContain(secret);
  }
  return error;
}

async function unavailable(
  attempt: Promise<unknown>,
  reason: BssUnavailableReason,
): Promise<BssUnavailable> {
  const error = await failure(attempt);
  expect(isBssUnavailable(error), error.message).toBe(true);
  expect((error as BssUnavailable).reason, error.message).toBe(reason);
  return error as BssUnavailable;
}

async function refused(attempt: Promise<unknown>, reason: BssRefusalReason): Promise<BssRefused> {
  const error = await failure(attempt);
  expect(isBssRefused(error), error.message).toBe(true);
  expect((error as BssRefused).reason, error.message).toBe(reason);
  return error as BssRefused;
}

function iccid(serial: number): string {
  const body = `89529900${String(serial).padStart(10, "0")}`;
  return `${body}${luhnCheckDigit(body)}`;
}

function topupInput(topupId: string, amount = 100, number = NUMBER) {
  return { topupId, number, amount, offerId: topupOffer(amount)?.offerId ?? "" };
}

describe("the configuration", () => {
  it("takes HTTPS addresses (plain HTTP on loopback only), credentials and a timeout", () => {
    expect(() => bss({ baseUrl: "http://bss.example.mx" })).toThrow(TypeError);
    expect(() => bss({ tokenUrl: "https://user:pw@auth.example.mx/token" })).toThrow(TypeError);
    expect(() => bss({ clientSecret: "" })).toThrow(TypeError);
    expect(() => bss({ timeoutMs: 0 })).toThrow(TypeError);
    expect(() => bss({ baseUrl: "https://bss.example.mx/gateway/" })).not.toThrow();
  });
});

describe("OAuth 2.0 client credentials", () => {
  it("asks once with Basic auth and reuses the token until shortly before it expires", async () => {
    standIn.addLine({ number: NUMBER });
    const client = bss();
    await client.findLine(NUMBER);
    await client.findLine(NUMBER);
    const tokenRequests = requestsTo(TOKEN_PATH, "POST");
    expect(tokenRequests).toHaveLength(1);
    const [scheme, encoded] = (tokenRequests[0].authorization ?? "").split(" ");
    expect(scheme).toBe("Basic");
    expect(Buffer.from(encoded, "base64").toString()).toBe(
      `${standIn.clientId}:${standIn.clientSecret}`,
    );
    expect(tokenRequests[0].body).toBe("grant_type=client_credentials");
    for (const request of requestsTo(PRODUCT_PATH)) {
      expect(request.authorization).toMatch(/^Bearer at-/);
    }
    // 3600 s tokens are used for 3540 s, then replaced.
    clock = new Date(clock.getTime() + 3_539_000);
    await client.findLine(NUMBER);
    expect(standIn.tokensIssued).toBe(1);
    clock = new Date(clock.getTime() + 2_000);
    await client.findLine(NUMBER);
    expect(standIn.tokensIssued).toBe(2);
  });

  it("fetches one token for calls made at the same time", async () => {
    standIn.addLine({ number: NUMBER });
    standIn.fault({ path: TOKEN_PATH, kind: "slow", delayMs: 50 });
    const client = bss();
    await Promise.all([1, 2, 3, 4, 5].map(() => client.findLine(NUMBER)));
    expect(standIn.tokensIssued).toBe(1);
  });

  it("after a 401 fetches a new token and tries once more", async () => {
    standIn.addLine({ number: NUMBER });
    const client = bss();
    await client.findLine(NUMBER);
    standIn.revokeTokens();
    expect((await client.findLine(NUMBER))?.number).toBe(NUMBER);
    expect(standIn.tokensIssued).toBe(2);
  });

  it("gives up after a second 401", async () => {
    standIn.fault({
      path: PRODUCT_PATH,
      kind: "status",
      status: 401,
      times: 2,
      body: { code: "41", reason: "Unauthorized", status: "401" },
    });
    await unavailable(bss().findLine(NUMBER), "unauthorized");
    expect(requestsTo(PRODUCT_PATH)).toHaveLength(2);
    expect(standIn.tokensIssued).toBe(2);
  });

  it("reads refused credentials as unavailable, naming the OAuth error and never the secret", async () => {
    const error = await unavailable(
      bss({ clientSecret: `${standIn.clientSecret}x` }).findLine(NUMBER),
      "unauthorized",
    );
    expect(error.message).toContain("invalid_client");
    expect(error.httpStatus).toBe(401);
    expect(requestsTo(PRODUCT_PATH)).toHaveLength(0);
  });

  it("reads a token endpoint that fails, answers garbage, is slow or hangs up as unavailable", async () => {
    standIn.fault({ path: TOKEN_PATH, kind: "status", status: 503, body: "<html>down</html>" });
    await unavailable(bss().findLine(NUMBER), "http-status");
    standIn.fault({ path: TOKEN_PATH, kind: "malformed" });
    await unavailable(bss().findLine(NUMBER), "malformed");
    standIn.fault({
      path: TOKEN_PATH,
      kind: "status",
      status: 200,
      body: { token_type: "Bearer" },
    });
    await unavailable(bss().findLine(NUMBER), "malformed");
    standIn.fault({
      path: TOKEN_PATH,
      kind: "status",
      status: 400,
      body: { error: "invalid_scope" },
    });
    expect((await unavailable(bss().findLine(NUMBER), "unauthorized")).message).toContain(
      "invalid_scope",
    );
    standIn.fault({ path: TOKEN_PATH, kind: "slow", delayMs: 2_500 });
    await unavailable(bss().findLine(NUMBER), "timeout");
    standIn.fault({ path: TOKEN_PATH, kind: "drop" });
    await unavailable(bss().findLine(NUMBER), "unreachable");
  });
});

describe("finding a line (TMF637 product, TMF654 buckets)", () => {
  it("reads the product with the number and its buckets as the line's balances", async () => {
    const productId = standIn.addLine({ number: NUMBER, offerId: "conecta-200" });
    const line = await bss().findLine(NUMBER);
    const dataBucket = standIn.buckets.find((bucket) => bucket.id === `${productId}-data`);
    const validFor = dataBucket?.validFor as { startDateTime: string; endDateTime: string };
    expect(line).toEqual({
      number: NUMBER,
      status: "active",
      package: {
        offerId: "conecta-200",
        name: "Conecta 200",
        startsAt: validFor.startDateTime,
        endsAt: validFor.endDateTime,
      },
      balances: {
        moneyMxn: 0,
        dataMb: { remaining: 10240, total: 10240 },
        socialDataMb: "unlimited",
        minutes: "unlimited",
        sms: "unlimited",
      },
    });
    expect(requestsTo(PRODUCT_PATH)[0].query).toMatchObject({
      "productCharacteristic.name": "MSISDN",
      "productCharacteristic.value": NUMBER,
      offset: "0",
    });
    expect(requestsTo(BUCKET_PATH)[0].query).toMatchObject({ "product.id": productId });
  });

  it("answers null for a number the BSS does not know, found empty or answered 404", async () => {
    standIn.addLine({ number: "5587654321" });
    expect(await bss().findLine(NUMBER)).toBeNull();
    standIn.fault({
      path: PRODUCT_PATH,
      kind: "status",
      status: 404,
      body: { code: "60", reason: "Not found", status: "404" },
    });
    expect(await bss().findLine(NUMBER)).toBeNull();
  });

  it("keeps only the products with the number when the BSS ignores the filter, page by page", async () => {
    for (const other of ["5511111111", "5522222222", "5533333333", "5544444444"]) {
      standIn.addLine({ number: other, buckets: [] });
    }
    standIn.addLine({ number: NUMBER, offerId: "conecta-50" });
    standIn.ignoreFilters = true;
    standIn.pageSize = 2;
    expect((await bss().findLine(NUMBER))?.package?.offerId).toBe("conecta-50");
    const pages = requestsTo(PRODUCT_PATH).map((request) => request.query.offset);
    expect(pages).toEqual(["0", "2", "4"]);
  });

  it("gives up on a list longer than a filtered one can be", async () => {
    for (let index = 0; index < 7; index++) standIn.addLine({ number: `551000000${index}` });
    standIn.ignoreFilters = true;
    standIn.pageSize = 1;
    await unavailable(bss().findLine(NUMBER), "malformed");
  });

  it("prefers the product in service among several with the number", async () => {
    standIn.addLine({ number: NUMBER, offerId: "conecta-50", status: "terminated" });
    standIn.addLine({ number: NUMBER, offerId: "conecta-300", status: "active" });
    expect((await bss().findLine(NUMBER))?.package?.offerId).toBe("conecta-300");
  });

  it.each([
    ["suspended", "suspended"],
    ["pendingActive", "porting"],
    ["terminated", "terminated"],
    ["aborted ", "terminated"],
    ["pendingTerminate", "active"],
  ])("reads the product status %j as %s", async (status, expected) => {
    standIn.addLine({ number: NUMBER, status });
    expect((await bss().findLine(NUMBER))?.status).toBe(expected);
  });

  it("converts units, adds buckets of a kind, and leaves out expired ones", async () => {
    const productId = "PRD-X";
    const bucket = (id: string, fields: Json): Json => ({
      id,
      status: "active",
      product: [{ id: productId }],
      partyAccount: { id: "ACC-1" },
      validFor: { startDateTime: "2026-01-01T06:00:00Z", endDateTime: "2099-01-01T06:00:00Z" },
      ...fields,
    });
    standIn.addLine({
      number: NUMBER,
      offerId: "conecta-local-80",
      buckets: [
        bucket("wallet", { usageType: "monetary", remainingValue: { amount: 37.5, units: "MXN" } }),
        bucket("d1", {
          usageType: "data",
          remainingValue: { amount: 512 * 1024 * 1024, units: "bytes" },
          initialValue: { amount: 1, units: "GB" },
        }),
        bucket("d2", { usageType: "data", remainingValue: { amount: 300, units: "MB" } }),
        bucket("old", {
          usageType: "data",
          remainingValue: { amount: 5, units: "GB" },
          validFor: { endDateTime: "2020-01-01T00:00:00Z" },
        }),
        bucket("gone", {
          usageType: "data",
          status: "expired",
          remainingValue: { amount: 5, units: "GB" },
        }),
        bucket("v", {
          usageType: "voice",
          remainingValue: { amount: 1800, units: "s" },
          initialValue: { amount: 1000, units: "min" },
        }),
        bucket("s", { usageType: "sms", remainingValue: { amount: 12, units: "sms" } }),
      ],
    });
    // The product the stand-in made has its own id; the buckets name PRD-X.
    standIn.products[0].id = productId;
    const line = await bss().findLine(NUMBER);
    expect(line?.balances).toEqual({
      moneyMxn: 37.5,
      dataMb: { remaining: 812, total: 1324 },
      socialDataMb: null,
      minutes: { remaining: 30, total: 1000 },
      sms: { remaining: 12, total: 12 },
    });
    expect(line?.package?.endsAt).toBe("2099-01-01T06:00:00.000Z");
  });

  it("has no package in force when only the wallet is left", async () => {
    standIn.addLine({
      number: NUMBER,
      buckets: [
        {
          id: "w",
          usageType: "monetary",
          status: "active",
          product: [{ id: "PRD-0001" }],
          remainingValue: { amount: 0, units: "MXN" },
        },
      ],
    });
    expect(await bss().findLine(NUMBER)).toMatchObject({
      package: null,
      balances: { moneyMxn: 0, dataMb: null, minutes: null },
    });
  });

  it.each([
    [
      "units it does not know",
      { usageType: "data", remainingValue: { amount: 1, units: "parsecs" } },
    ],
    [
      "money in another currency",
      { usageType: "monetary", remainingValue: { amount: 1, units: "USD" } },
    ],
    ["a negative amount", { usageType: "sms", remainingValue: { amount: -3, units: "sms" } }],
    ["an amount as text", { usageType: "sms", remainingValue: { amount: "3", units: "sms" } }],
  ])("reads a bucket with %s as malformed", async (_what, fields) => {
    standIn.addLine({
      number: NUMBER,
      buckets: [{ id: "b", status: "active", product: [{ id: "PRD-0001" }], ...fields }],
    });
    await unavailable(bss().findLine(NUMBER), "malformed");
  });

  it("reads an unknown product status as malformed", async () => {
    standIn.addLine({ number: NUMBER, status: "dormant" });
    await unavailable(bss().findLine(NUMBER), "malformed");
  });

  it("maps every fault of the BSS", async () => {
    standIn.addLine({ number: NUMBER });
    const client = bss();
    standIn.fault({
      path: PRODUCT_PATH,
      kind: "status",
      status: 500,
      body: { code: "99", reason: "Internal error", message: "db down", status: "500" },
    });
    expect((await unavailable(client.findLine(NUMBER), "http-status")).message).toContain(
      "Internal error",
    );
    standIn.fault({
      path: BUCKET_PATH,
      kind: "status",
      status: 502,
      body: "<html>Bad gateway</html>",
      contentType: "text/html",
    });
    expect((await unavailable(client.findLine(NUMBER), "http-status")).httpStatus).toBe(502);
    standIn.fault({ path: PRODUCT_PATH, kind: "status", status: 429 });
    await unavailable(client.findLine(NUMBER), "http-status");
    standIn.fault({
      path: PRODUCT_PATH,
      kind: "status",
      status: 403,
      body: { code: "43", reason: "Forbidden" },
    });
    await unavailable(client.findLine(NUMBER), "unauthorized");
    standIn.fault({ path: PRODUCT_PATH, kind: "malformed" });
    await unavailable(client.findLine(NUMBER), "malformed");
    standIn.fault({ path: BUCKET_PATH, kind: "status", status: 200, body: { id: "not a list" } });
    await unavailable(client.findLine(NUMBER), "malformed");
    standIn.fault({ path: PRODUCT_PATH, kind: "slow", delayMs: 2_500 });
    await unavailable(client.findLine(NUMBER), "timeout");
    standIn.fault({ path: BUCKET_PATH, kind: "drop" });
    await unavailable(client.findLine(NUMBER), "unreachable");
    standIn.fault({
      path: PRODUCT_PATH,
      kind: "status",
      status: 400,
      body: { code: "22", reason: "Invalid filter", status: "400" },
    });
    const error = await refused(client.findLine(NUMBER), "rejected");
    expect(error.detail).toMatchObject({ code: "22", reason: "Invalid filter" });
    // And then it answers again.
    expect((await client.findLine(NUMBER))?.status).toBe("active");
  });

  it("refuses a number that is not ten digits before asking", async () => {
    await expect(bss().findLine("55123")).rejects.toThrow(TypeError);
    expect(standIn.requests).toHaveLength(0);
  });
});

describe("usage by day (TMF635)", () => {
  function record(productId: string, usageDate: string, type: string, values: Json): Json {
    return {
      id: `U-${standIn.usage.length + 1}`,
      usageDate,
      usageType: type,
      status: "rated",
      usageCharacteristic: [
        { name: "msisdn", valueType: "string", value: NUMBER },
        ...Object.entries(values).map(([name, value]) => ({ name, value })),
      ],
      ratedProductUsage: [{ productRef: { id: productId }, usageRatingTag: "included usage" }],
      "@type": "Usage",
    };
  }

  it("adds records up by Mexico City day, through every page, with zeros between", async () => {
    const productId = standIn.addLine({ number: NUMBER });
    const other = standIn.addLine({ number: "5587654321" });
    standIn.addUsage(
      record(productId, "2026-03-08T12:00:00-06:00", "data", { volume: 1.5, unit: "GB" }),
    );
    // 23:30 on 8 March in Mexico City.
    standIn.addUsage(
      record(productId, "2026-03-09T05:30:00Z", "data", { volume: 100, unit: "MB" }),
    );
    standIn.addUsage(
      record(productId, "2026-03-09T10:00:00Z", "voice", { duration: 90, unit: "s" }),
    );
    standIn.addUsage(
      record(productId, "2026-03-09T11:00:00Z", "voice", { duration: 2, unit: "min" }),
    );
    standIn.addUsage(record(productId, "2026-03-10T16:00:00Z", "sms", { events: 3 }));
    standIn.addUsage(record(productId, "2026-03-10T17:00:00Z", "sms", {}));
    standIn.addUsage(record(productId, "2026-03-10T18:00:00Z", "roaming", { volume: 5 }));
    standIn.addUsage(record(productId, "2026-03-12T18:00:00Z", "data", { volume: 9, unit: "MB" }));
    standIn.addUsage(record(other, "2026-03-10T18:00:00Z", "data", { volume: 7, unit: "MB" }));
    standIn.pageSize = 2;
    const usage = await bss().usageByDay(NUMBER, "2026-03-07", "2026-03-11");
    expect(usage).toEqual([
      { day: "2026-03-07", dataMb: 0, minutes: 0, sms: 0 },
      { day: "2026-03-08", dataMb: 1636, minutes: 0, sms: 0 },
      { day: "2026-03-09", dataMb: 0, minutes: 3.5, sms: 0 },
      { day: "2026-03-10", dataMb: 0, minutes: 0, sms: 4 },
      { day: "2026-03-11", dataMb: 0, minutes: 0, sms: 0 },
    ]);
    const pages = requestsTo(USAGE_PATH);
    expect(pages[0].query).toMatchObject({
      "ratedProductUsage.productRef.id": productId,
      "usageDate.gte": "2026-03-07T06:00:00.000Z",
      "usageDate.lt": "2026-03-12T06:00:00.000Z",
    });
    // Seven records in the range, two a page: 206, 206, 206, 200.
    expect(pages.map((request) => request.query.offset)).toEqual(["0", "2", "4", "6"]);
  });

  it("keeps only the line's records and days when the BSS ignores the filters", async () => {
    const productId = standIn.addLine({ number: NUMBER });
    const other = standIn.addLine({ number: "5587654321" });
    standIn.addUsage(record(productId, "2026-03-10T18:00:00Z", "data", { volume: 10, unit: "MB" }));
    standIn.addUsage({
      ...record(other, "2026-03-10T18:00:00Z", "data", { volume: 7, unit: "MB" }),
      usageCharacteristic: [{ name: "volume", value: 7 }],
    });
    standIn.addUsage(record(productId, "2026-04-10T18:00:00Z", "data", { volume: 9, unit: "MB" }));
    standIn.ignoreFilters = true;
    expect(await bss().usageByDay(NUMBER, "2026-03-10", "2026-03-10")).toEqual([
      { day: "2026-03-10", dataMb: 10, minutes: 0, sms: 0 },
    ]);
  });

  it("refuses an unknown number and reads a bad record as malformed", async () => {
    await refused(bss().usageByDay(NUMBER, "2026-03-01", "2026-03-10"), "unknown-number");
    const productId = standIn.addLine({ number: NUMBER });
    standIn.addUsage(record(productId, "2026-03-10T18:00:00Z", "data", { volume: "mucho" }));
    await unavailable(bss().usageByDay(NUMBER, "2026-03-01", "2026-03-10"), "malformed");
    await expect(bss().usageByDay(NUMBER, "2026-03-10", "2026-03-01")).rejects.toThrow(RangeError);
  });
});

describe("applying a top-up (TMF654 topupBalance)", () => {
  it("posts the documented body with our reference, and the line shows it", async () => {
    const productId = standIn.addLine({ number: NUMBER });
    const client = bss();
    const { reference } = await client.applyTopup(topupInput("topup-1", 100));
    expect(reference).toMatch(/^TU-/);
    // Looked for first: an earlier call may have applied it.
    expect(requestsTo(TOPUP_PATH, "GET")[0].query).toMatchObject({ "paymentMethod.id": "topup-1" });
    const posts = requestsTo(TOPUP_PATH, "POST");
    expect(posts).toHaveLength(1);
    expect(posts[0].body).toMatchObject({
      amount: { amount: 100, units: "MXN" },
      usageType: "monetary",
      bucket: { id: `${productId}-wallet` },
      partyAccount: { id: `ACC-${NUMBER}` },
      product: [{ id: productId }],
      logicalResource: [{ id: NUMBER, name: "MSISDN" }],
      paymentMethod: { id: "topup-1" },
      externalId: "topup-1",
    });
    expect((await client.findLine(NUMBER))?.balances.dataMb).toEqual({
      remaining: 10240 + 3072,
      total: 13312,
    });
  });

  it("answers a repeat with the first reference, posting nothing", async () => {
    standIn.addLine({ number: NUMBER });
    const first = await bss().applyTopup(topupInput("topup-2"));
    expect(await bss().applyTopup(topupInput("topup-2"))).toEqual(first);
    expect(requestsTo(TOPUP_PATH, "POST")).toHaveLength(1);
    expect(standIn.topups).toHaveLength(1);
  });

  it.each([
    ["no answer in time", { kind: "slow", delayMs: 2_500, afterProcessing: true } as const],
    ["the connection dropped", { kind: "drop", afterProcessing: true } as const],
  ])("finds it applied after %s, and does not post again", async (_what, fault) => {
    standIn.addLine({ number: NUMBER });
    standIn.fault({ method: "POST", path: TOPUP_PATH, ...fault });
    const { reference } = await bss().applyTopup(topupInput("topup-3"));
    expect(standIn.topups).toHaveLength(1);
    expect(reference).toBe(standIn.topups[0].id);
    expect(requestsTo(TOPUP_PATH, "POST")).toHaveLength(1);
    expect(requestsTo(TOPUP_PATH, "GET")).toHaveLength(2);
  });

  it("posts once more after a 500 that applied nothing, and stops after a second", async () => {
    standIn.addLine({ number: NUMBER });
    const serverError = { code: "99", reason: "Internal error", status: "500" };
    standIn.fault({
      method: "POST",
      path: TOPUP_PATH,
      kind: "status",
      status: 500,
      body: serverError,
    });
    await bss().applyTopup(topupInput("topup-4"));
    expect(standIn.topups).toHaveLength(1);
    expect(requestsTo(TOPUP_PATH, "POST")).toHaveLength(2);

    standIn.fault({
      method: "POST",
      path: TOPUP_PATH,
      kind: "status",
      status: 503,
      times: 2,
      body: serverError,
    });
    await unavailable(bss().applyTopup(topupInput("topup-5")), "http-status");
    expect(standIn.topups).toHaveLength(1);
    expect(requestsTo(TOPUP_PATH, "POST")).toHaveLength(4);
  });

  it("reads a TMF Error refusal as refused, without posting again", async () => {
    standIn.addLine({ number: NUMBER });
    standIn.fault({
      method: "POST",
      path: TOPUP_PATH,
      kind: "status",
      status: 400,
      body: { code: "21", reason: "Missing mandatory attribute", message: "bucket", status: "400" },
    });
    const error = await refused(bss().applyTopup(topupInput("topup-6")), "rejected");
    expect(error.detail).toEqual({
      code: "21",
      reason: "Missing mandatory attribute",
      message: "bucket",
    });
    expect(requestsTo(TOPUP_PATH, "POST")).toHaveLength(1);
  });

  it("waits for a top-up the BSS completes later", async () => {
    standIn.addLine({ number: NUMBER });
    standIn.asyncTopups = true;
    const { reference } = await bss().applyTopup(topupInput("topup-7"));
    expect(standIn.topups[0]).toMatchObject({ id: reference, status: "completed" });
    expect(requestsTo(`${TOPUP_PATH}/${reference}`, "GET")).toHaveLength(1);
  });

  it("refuses an unknown number, a suspended line, an offer that does not match", async () => {
    await refused(bss().applyTopup(topupInput("topup-8")), "unknown-number");
    standIn.addLine({ number: NUMBER, status: "suspended" });
    await refused(bss().applyTopup(topupInput("topup-9")), "line-not-active");
    await refused(
      bss().applyTopup({ topupId: "t", number: NUMBER, amount: 100, offerId: "conecta-200" }),
      "unknown-offer",
    );
    expect(requestsTo(TOPUP_PATH, "POST")).toHaveLength(0);
  });

  it("refuses a top-up id the BSS has for another amount", async () => {
    standIn.addLine({ number: NUMBER });
    await bss().applyTopup(topupInput("topup-10", 50));
    await refused(bss().applyTopup(topupInput("topup-10", 100)), "reference-reused");
  });
});

describe("activating a line (TMF622 productOrder)", () => {
  it("orders the plan for the SIM, polls until completed and answers the number", async () => {
    const client = bss();
    const sim = iccid(1);
    const { number } = await client.activateLine({
      externalId: "order-1.0",
      iccid: sim,
      offerId: "conecta-150",
    });
    expect(number).toBe("5598000001");
    const [post] = requestsTo(ORDER_PATH, "POST");
    expect(post.body).toMatchObject({
      externalId: "order-1.0",
      productOrderItem: [
        {
          id: "1",
          action: "add",
          productOffering: { id: "conecta-150" },
          product: {
            productCharacteristic: [
              { name: "ICCID", value: sim },
              { name: "portIn", value: false },
            ],
          },
        },
      ],
    });
    // acknowledged → inProgress → completed.
    const orderId = standIn.orders[0].id as string;
    expect(requestsTo(`${ORDER_PATH}/${orderId}`, "GET")).toHaveLength(2);
    expect((await client.findLine(number))?.package?.offerId).toBe("conecta-150");
  });

  it("keeps a ported number", async () => {
    const { number } = await bss().activateLine({
      externalId: "portability-1",
      iccid: iccid(2),
      offerId: "conecta-100",
      number: NUMBER,
    });
    expect(number).toBe(NUMBER);
    const characteristics = (
      (requestsTo(ORDER_PATH, "POST")[0].body as Json).productOrderItem as Json[]
    )[0].product as Json;
    expect(characteristics.productCharacteristic).toContainEqual(
      expect.objectContaining({ name: "MSISDN", value: NUMBER }),
    );
    expect(characteristics.productCharacteristic).toContainEqual(
      expect.objectContaining({ name: "portIn", value: true }),
    );
  });

  it("answers a repeat from the order placed before, ordering nothing", async () => {
    const input = { externalId: "order-2.0", iccid: iccid(3), offerId: "conecta-50" };
    const first = await bss().activateLine(input);
    expect(await bss().activateLine(input)).toEqual(first);
    expect(requestsTo(ORDER_PATH, "POST")).toHaveLength(1);
    expect(requestsTo(ORDER_PATH, "GET")[0].query).toMatchObject({ externalId: "order-2.0" });
  });

  it("finds the order placed by a call whose answer was lost", async () => {
    standIn.fault({ method: "POST", path: ORDER_PATH, kind: "drop", afterProcessing: true });
    const { number } = await bss().activateLine({
      externalId: "order-3.0",
      iccid: iccid(4),
      offerId: "conecta-50",
    });
    expect(number).toBe("5598000001");
    expect(standIn.orders).toHaveLength(1);
  });

  it("refuses an order the BSS failed, and leaves one still in progress for later", async () => {
    standIn.orderOutcome = "failed";
    await refused(
      bss().activateLine({ externalId: "order-4.0", iccid: iccid(5), offerId: "conecta-50" }),
      "rejected",
    );
    standIn.orderOutcome = "stuck";
    const input = { externalId: "order-5.0", iccid: iccid(6), offerId: "conecta-50" };
    await unavailable(bss().activateLine(input), "pending");
    standIn.orderOutcome = "completed";
    expect((await bss().activateLine(input)).number).toMatch(/^5598/);
    expect(requestsTo(ORDER_PATH, "POST")).toHaveLength(2);
  });

  it("refuses an ICCID that fails the Luhn check or a plan not sold, asking nothing", async () => {
    const bad = iccid(7).slice(0, -1) + ((Number(iccid(7).at(-1)) + 1) % 10);
    await refused(
      bss().activateLine({ externalId: "o", iccid: bad, offerId: "conecta-50" }),
      "invalid-iccid",
    );
    await refused(
      bss().activateLine({ externalId: "o", iccid: iccid(7), offerId: "conecta-9000" }),
      "unknown-offer",
    );
    expect(standIn.requests).toHaveLength(0);
  });

  it("reads a refused order as refused and a BSS down as unavailable", async () => {
    standIn.fault({
      method: "POST",
      path: ORDER_PATH,
      kind: "status",
      status: 422,
      body: { code: "70", reason: "ICCID unknown", status: "422" },
    });
    const input = { externalId: "order-6.0", iccid: iccid(8), offerId: "conecta-50" };
    expect((await refused(bss().activateLine(input), "rejected")).detail?.reason).toBe(
      "ICCID unknown",
    );
    standIn.fault({ method: "POST", path: ORDER_PATH, kind: "status", status: 500, times: 2 });
    await unavailable(bss().activateLine(input), "http-status");
    expect(standIn.orders).toHaveLength(0);
  });
});

describe("a line's registration (decision 0100)", () => {
  const UNREGISTERED = [{ name: "suspensionReason", valueType: "string", value: "noRegistration" }];

  it("reads a product suspended for want of a registration as unregistered, and tops it up", async () => {
    standIn.addLine({ number: NUMBER, status: "suspended", characteristics: UNREGISTERED });
    expect((await bss().findLine(NUMBER))?.status).toBe("unregistered");
    // A top-up is applied to it (the service stays suspended until the registration).
    expect((await bss().applyTopup(topupInput("topup-u1"))).reference).toMatch(/^TU-/);
    expect((await bss().findLine(NUMBER))?.status).toBe("unregistered");
  });

  it("reads a product suspended for another reason as suspended, and refuses its top-up", async () => {
    standIn.addLine({
      number: NUMBER,
      status: "suspended",
      characteristics: [{ name: "suspensionReason", valueType: "string", value: "fraud" }],
    });
    expect((await bss().findLine(NUMBER))?.status).toBe("suspended");
    await refused(bss().applyTopup(topupInput("topup-u2")), "line-not-active");
  });

  it("sets the folio with a TMF622 modify order, which lifts the suspension", async () => {
    const productId = standIn.addLine({
      number: NUMBER,
      status: "suspended",
      characteristics: UNREGISTERED,
    });
    await bss().recordRegistration({ number: NUMBER, folio: "VIN-2026-000001" });
    const [post] = requestsTo(ORDER_PATH, "POST");
    expect(post.body).toMatchObject({
      productOrderItem: [
        {
          action: "modify",
          product: {
            id: productId,
            productCharacteristic: [{ name: "registrationFolio", value: "VIN-2026-000001" }],
          },
        },
      ],
    });
    expect((await bss().findLine(NUMBER))?.status).toBe("active");
    // Told again: the product already says so, no second order.
    await bss().recordRegistration({ number: NUMBER, folio: "VIN-2026-000001" });
    expect(requestsTo(ORDER_PATH, "POST")).toHaveLength(1);
  });

  it("empties the folio of a line found without a registration: the BSS suspends it", async () => {
    standIn.addLine({ number: NUMBER });
    await bss().recordRegistration({ number: NUMBER, folio: null });
    expect((await bss().findLine(NUMBER))?.status).toBe("unregistered");
    await bss().recordRegistration({ number: NUMBER, folio: null });
    expect(requestsTo(ORDER_PATH, "POST")).toHaveLength(1);
  });

  it("changes nothing on a line ported away or dada de baja, and refuses an unknown number", async () => {
    standIn.addLine({ number: NUMBER, status: "terminated" });
    await bss().recordRegistration({ number: NUMBER, folio: null });
    expect(requestsTo(ORDER_PATH, "POST")).toHaveLength(0);
    await refused(
      bss().recordRegistration({ number: "5500000000", folio: "VIN-2026-000002" }),
      "unknown-number",
    );
  });

  it("leaves an order whose answer was lost to the retry, and refuses a failed one", async () => {
    standIn.addLine({ number: NUMBER, status: "suspended", characteristics: UNREGISTERED });
    standIn.fault({ method: "POST", path: ORDER_PATH, kind: "drop", afterProcessing: true });
    // The product does not say it yet (the order was never polled to its end): try again later.
    await unavailable(
      bss().recordRegistration({ number: NUMBER, folio: "VIN-2026-000003" }),
      "unreachable",
    );
    // The retry orders the same change again: setting a characteristic twice is harmless.
    await bss().recordRegistration({ number: NUMBER, folio: "VIN-2026-000003" });
    expect((await bss().findLine(NUMBER))?.status).toBe("active");
    standIn.orderOutcome = "failed";
    const other = "5512340000";
    standIn.addLine({ number: other, status: "suspended", characteristics: UNREGISTERED });
    await refused(
      bss().recordRegistration({ number: other, folio: "VIN-2026-000004" }),
      "rejected",
    );
    expect((await bss().findLine(other))?.status).toBe("unregistered");
  });
});

describe("a number as a BSS writes it", () => {
  it("reads ten digits, 52 + ten, and the old +52 1 mobile prefix", () => {
    expect(nationalNumber("5512345678")).toBe(NUMBER);
    expect(nationalNumber("525512345678")).toBe(NUMBER);
    expect(nationalNumber("+52 1 55 1234 5678")).toBe(NUMBER);
    expect(nationalNumber("12345")).toBeNull();
    expect(nationalNumber({})).toBeNull();
  });
});
