import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isUniqueViolation, openDatabase, type Db } from "~/db/db.server";
import {
  createPostgresDatabase,
  databaseEngine,
  openDatabaseUnderTest,
} from "../../tests/support/test-database";
import type { PortabilityStatus } from "~/db/schema";
import { curpCheckDigit } from "~/registration/curp";
import { portabilitySchema, type PortabilityInput } from "./portability-schema";
import {
  createNipBox,
  createPortabilityRequests,
  listCustomerPortabilityRequests,
  type PortabilityRequests,
  type SubmitOutcome,
} from "./requests.server";

const SECRET = "a-test-secret-that-is-long-enough-0123456789";
let db: Db;

/** Moves a request along as the operator's tool would (app/ops), without its audit or e-mail. */
async function setStatus(folio: string, status: PortabilityStatus) {
  await db.updateTable("portability_requests").set({ status }).where("folio", "=", folio).execute();
}
let requests: PortabilityRequests;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  requests = createPortabilityRequests({ db, nipBox: createNipBox([SECRET]) });
});
afterEach(async () => {
  await db.destroy();
});

const curp = "GOMA850312MDFRRN0" + curpCheckDigit("GOMA850312MDFRRN0");

/** A form key of the shape the form issues (its signature is checked by the route, not here). */
const formKey = () =>
  `${randomBytes(12).toString("base64url")}.${randomBytes(16).toString("base64url").slice(0, 22)}`;

function request(overrides: Partial<Record<string, string>> = {}): PortabilityInput {
  return portabilitySchema.parse({
    phone_number: "55 1234 5678",
    nip: "4821",
    full_name: "Ana Gómez Martínez",
    email: "ana@example.mx",
    curp,
    current_carrier: "telcel",
    accept_terms: "on",
    idempotency_key: formKey(),
    ...overrides,
  });
}

async function accepted(input: PortabilityInput) {
  const outcome = await requests.submit(input);
  if (outcome.kind !== "accepted") throw new Error(`expected accepted, got ${outcome.kind}`);
  return outcome;
}

describe("a portability request", () => {
  it("keeps who asked when signed in, so the ported number becomes a line of their account", async () => {
    const signedIn = await requests.submit(request(), { customerSub: "sub-ana" });
    const guest = await accepted(request({ phone_number: "5512345679" }));
    if (signedIn.kind !== "accepted") throw new Error("expected accepted");
    expect(signedIn.request.customerSub).toBe("sub-ana");
    expect(guest.request.customerSub).toBeNull();
    const rows = await db
      .selectFrom("portability_requests")
      .select(["phone_number", "customer_sub"])
      .orderBy("phone_number")
      .execute();
    expect(rows).toEqual([
      { phone_number: "5512345678", customer_sub: "sub-ana" },
      { phone_number: "5512345679", customer_sub: null },
    ]);
  });

  it("is received with a POR folio of the year", async () => {
    const { request: created, created: isNew } = await accepted(request());
    expect(isNew).toBe(true);
    expect(created.status).toBe("received");
    expect(created.folio).toMatch(/^POR-\d{4}-000001$/);
    expect(created.phoneNumber).toBe("5512345678");
    expect(created.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(created).not.toHaveProperty("nip");
  });

  it("keeps the NIP only sealed: the stored row never holds it in clear", async () => {
    const { request: created } = await accepted(request({ nip: "4821" }));
    const { rows } = await sql<Record<string, unknown>>`select * from portability_requests`.execute(
      db,
    );
    expect(JSON.stringify(rows)).not.toContain("4821");
    expect(await requests.revealNip(created.id)).toBe("4821");
    // Another deployment's secret cannot open it.
    const stranger = createPortabilityRequests({ db, nipBox: createNipBox(["x".repeat(40)]) });
    expect(await stranger.revealNip(created.id)).toBeNull();
  });

  it("is created once per idempotency key: a resubmitted form returns the same request", async () => {
    const input = request();
    const first = await accepted(input);
    const again = await accepted({ ...input, nip: "9999" });
    expect(again.created).toBe(false);
    expect(again.request.folio).toBe(first.request.folio);
    const { count } = await db
      .selectFrom("portability_requests")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(1);
  });

  it("is refused while the same number has an open request, without naming its folio", async () => {
    const first = await accepted(request());
    expect(await requests.submit(request({ phone_number: "5512345678" }))).toEqual({
      kind: "open_request_exists",
    });
    await setStatus(first.request.folio, "in_progress");
    expect((await requests.submit(request())).kind).toBe("open_request_exists");
    // Another number is not affected.
    expect((await requests.submit(request({ phone_number: "3312345678" }))).kind).toBe("accepted");
  });

  it.each(["completed", "rejected"] as const)(
    "can be made again once the previous one is %s",
    async (status) => {
      const first = await accepted(request());
      await setStatus(first.request.folio, status);
      const second = await accepted(request());
      expect(second.request.folio).not.toBe(first.request.folio);
    },
  );

  it("refuses a racing second open request at the database, not only in code", async () => {
    await accepted(request());
    await expect(
      db
        .insertInto("portability_requests")
        .values({
          id: "racing-request-id",
          folio: "POR-2026-999999",
          idempotency_key: formKey(),
          phone_number: "5512345678",
          nip_sealed: "v1.x",
          full_name: "Otra Persona",
          email: "otra@example.mx",
          curp,
          current_carrier: "att",
          iccid: null,
          status: "received",
          terms_accepted_at: "2026-01-01T00:00:00.000Z",
          created_at: "2026-01-01T00:00:00.000Z",
          updated_at: "2026-01-01T00:00:00.000Z",
        })
        .execute(),
    ).rejects.toSatisfy(isUniqueViolation);
  });
});

/**
 * Runs `meanwhile` once, right after the first query that reads portability requests by their
 * idempotency key has answered: as if another worker's submission committed in that moment.
 */
function afterFirstKeyLookup(meanwhile: () => Promise<unknown>): KyselyPlugin {
  const keyLookups = new Set<unknown>();
  let done = false;
  return {
    transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
      if (JSON.stringify(node).includes('"idempotency_key"') && node.kind === "SelectQueryNode") {
        keyLookups.add(queryId.queryId);
      }
      return node;
    },
    async transformResult({
      result,
      queryId,
    }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      if (!done && keyLookups.has(queryId.queryId)) {
        done = true;
        await meanwhile();
      }
      return result;
    },
  };
}

describe("a double click on two workers", () => {
  it("answers the twin that lost the race with the request it made, not as another's open request", async () => {
    // Two connections to one database, as two worker processes have.
    const dataDir = mkdtempSync(path.join(tmpdir(), "portability-twins-"));
    const url = databaseEngine() === "postgres" ? await createPostgresDatabase() : undefined;
    const open = () => openDatabase({ dataDir, databaseUrl: url });
    const [first, second] = [await open(), await open()];
    try {
      const input = request({ phone_number: "5598765432" });
      const worker = (database: Db) =>
        createPortabilityRequests({ db: database, nipBox: createNipBox([SECRET]) });
      const outcomes: SubmitOutcome[] = [];
      const loser = worker(
        second.withPlugin(
          afterFirstKeyLookup(async () => outcomes.push(await worker(first).submit(input))),
        ),
      );
      outcomes.push(await loser.submit(input));
      const [winner, twin] = outcomes.map((outcome) =>
        outcome.kind === "accepted"
          ? { folio: outcome.request.folio, created: outcome.created }
          : outcome,
      );
      expect(winner).toEqual({ folio: expect.stringMatching(/^POR-/), created: true });
      expect(twin).toEqual({ ...winner, created: false });
    } finally {
      await first.destroy();
      await second.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("the status lookup", () => {
  it("finds a request only when the folio and the number both match", async () => {
    const { request: created } = await accepted(request());
    expect((await requests.lookup(created.folio, "5512345678"))?.status).toBe("received");
    expect(await requests.lookup(created.folio, "5512345679")).toBeNull();
    expect(await requests.lookup("POR-2026-999999", "5512345678")).toBeNull();
  });

  it("shows the status the request has now", async () => {
    const { request: created } = await accepted(request());
    await setStatus(created.folio, "completed");
    expect((await requests.lookup(created.folio, "5512345678"))?.status).toBe("completed");
  });
});

describe("the result page", () => {
  it("shows a request only to the browser that submitted it", async () => {
    const { request: created } = await accepted(request());
    expect((await requests.findSubmitted(created.folio, [created.id]))?.email).toBe(
      "ana@example.mx",
    );
    expect(await requests.findSubmitted(created.folio, [])).toBeNull();
    expect(await requests.findSubmitted(created.folio, ["someone-else"])).toBeNull();
  });
});

describe("a customer's requests in their account", () => {
  it("lists those made signed in, and as a guest with the e-mail the account proved, newest first", async () => {
    const signedIn = await requests.submit(
      request({ phone_number: "55 1111 2222", idempotency_key: formKey() }),
      { customerSub: "sub-ana" },
    );
    const asGuest = await requests.submit(
      request({
        phone_number: "55 3333 4444",
        email: "ANA@example.mx",
        idempotency_key: formKey(),
      }),
    );
    await requests.submit(
      request({
        phone_number: "55 5555 6666",
        email: "otra@example.mx",
        idempotency_key: formKey(),
      }),
    );
    if (signedIn.kind !== "accepted" || asGuest.kind !== "accepted") throw new Error("refused");
    const proven = { sub: "sub-ana", email: "ana@example.mx", emailProven: true };
    const listed = await listCustomerPortabilityRequests(db, proven);
    expect(listed.map((entry) => entry.folio).sort()).toEqual(
      [signedIn.request.folio, asGuest.request.folio].sort(),
    );
    expect(listed[0]).toMatchObject({ status: "received", scheduledFor: null });
    // An address the account has not proved shows only what was made signed in.
    const unproven = await listCustomerPortabilityRequests(db, { ...proven, emailProven: false });
    expect(unproven.map((entry) => entry.folio)).toEqual([signedIn.request.folio]);
  });
});
