import { describe, expect, it } from "vitest";
import {
  reconcileRegistrations,
  type RegistrationFindingKind,
  type RegistrationLedger,
  type RegistrationRows,
  type ToldRegistration,
} from "./reconcile-registrations";

type Row = RegistrationRows["registrations"][number];
type Attempt = RegistrationRows["registrationAttempts"][number];
/** A run the tests then break, one thing at a time. */
interface Run {
  ledger: { registrations: ToldRegistration[] };
  rows: { registrations: Row[]; registrationAttempts: Attempt[] };
}

const ANA = { name: "Ana Gómez Martínez", masked: "GOMA••••••••••••04", hash: "hash-ana" };
const LUIS = { name: "Luis Pérez Soto", masked: "PESL••••••••••••07", hash: "hash-luis" };
const MARIA = { name: "María Ruiz Vega", masked: "RUVM••••••••••••02", hash: "hash-maria" };

function registration(
  overrides: Partial<Row> & Pick<Row, "id" | "folio" | "number" | "registered_at">,
): Row {
  return {
    holder_kind: "fisica",
    holder_name: ANA.name,
    holder_key_hash: ANA.hash,
    holder_key_masked: ANA.masked,
    channel: "online",
    replaced_at: null,
    replaced_by: null,
    ...overrides,
  };
}

const failure = (number: string, attempted_at: string): Attempt => ({
  number,
  outcome: "name-mismatch",
  channel: "online",
  attempted_at,
});

/**
 * A consistent run: Ana registered 5500001100 after one failed validation, and 5500001101; Luis
 * then registered 5500001101 again (it replaced Ana's); Ana's 11th line (5500001110) was refused.
 */
function cleanRun(): Run {
  const rows: Run["rows"] = {
    registrations: [
      registration({
        id: "r1",
        folio: "VIN-2026-000001",
        number: "5500001100",
        registered_at: "2026-11-25T10:00:00.000Z",
      }),
      registration({
        id: "r2",
        folio: "VIN-2026-000002",
        number: "5500001101",
        registered_at: "2026-11-25T10:00:01.000Z",
        replaced_at: "2026-11-25T10:00:05.000Z",
        replaced_by: "r3",
      }),
      registration({
        id: "r3",
        folio: "VIN-2026-000003",
        number: "5500001101",
        registered_at: "2026-11-25T10:00:05.000Z",
        holder_name: LUIS.name,
        holder_key_hash: LUIS.hash,
        holder_key_masked: LUIS.masked,
      }),
    ],
    registrationAttempts: [
      failure("5500001100", "2026-11-25T09:59:58.000Z"),
      {
        number: "5500001100",
        outcome: "valid",
        channel: "online",
        attempted_at: "2026-11-25T09:59:59.000Z",
      },
    ],
  };
  const told = (journey: string, number: string, folio: string, holder = ANA) => ({
    journey,
    customer: 1,
    number,
    holderName: holder.name,
    holderKeyMasked: holder.masked,
    outcome: "told" as const,
    folio,
    refusal: null,
  });
  const ledger: Run["ledger"] = {
    registrations: [
      told("customer 1 journey 1 (register)", "5500001100", "VIN-2026-000001"),
      told("customer 1 journey 2 (register)", "5500001101", "VIN-2026-000002"),
      {
        ...told("customer 2 journey 1 (register)", "5500001101", "VIN-2026-000003", LUIS),
        customer: 2,
      },
      {
        ...told("customer 1 journey 3 (register)", "5500001110", "unused"),
        outcome: "refused",
        folio: null,
        refusal: "line-limit",
      },
    ],
  };
  return { ledger, rows };
}

const kinds = (input: { ledger: RegistrationLedger; rows: RegistrationRows }) =>
  reconcileRegistrations(input).findings.map((finding) => finding.kind);

function expectOnly(
  input: { ledger: RegistrationLedger; rows: RegistrationRows },
  kind: RegistrationFindingKind,
) {
  const found = kinds(input);
  expect(found.length).toBeGreaterThan(0);
  expect(new Set(found)).toEqual(new Set([kind]));
}

/** `count` current lines of one holder, numbers 55000020NN. */
function linesOf(count: number, holder = MARIA, overrides: Partial<Row> = {}): Row[] {
  return Array.from({ length: count }, (_, index) =>
    registration({
      id: `l${index}`,
      folio: `VIN-2026-1000${String(index).padStart(2, "0")}`,
      number: `55000020${String(index).padStart(2, "0")}`,
      registered_at: `2026-11-25T11:00:${String(index).padStart(2, "0")}.000Z`,
      holder_name: holder.name,
      holder_key_hash: holder.hash,
      holder_key_masked: holder.masked,
      ...overrides,
    }),
  );
}

describe("the soak's reconciliation of line registrations", () => {
  it("finds nothing in a consistent run, and says how much it compared", () => {
    const result = reconcileRegistrations(cleanRun());
    expect(result.findings).toEqual([]);
    expect(result.checked).toEqual({
      registrations: 3,
      current: 2,
      replaced: 1,
      holders: 2,
      failedAttempts: 1,
      told: 3,
      refusedAtLimit: 1,
      refusedInPerson: 0,
    });
  });

  it("allows a holder 10 current lines, and fails on an 11th (replaced ones do not count)", () => {
    const run = cleanRun();
    const ten = {
      ...run,
      rows: { ...run.rows, registrations: [...run.rows.registrations, ...linesOf(10)] },
    };
    expect(kinds(ten)).toEqual([]);
    const eleven = {
      ...run,
      rows: { ...run.rows, registrations: [...run.rows.registrations, ...linesOf(11)] },
    };
    expectOnly(eleven, "holder-over-limit");
    const detail = reconcileRegistrations(eleven).findings[0].detail;
    expect(detail).toContain("11 current lines");
    expect(detail).toContain(MARIA.masked);
    // A company has no limit.
    const company = {
      ...run,
      rows: {
        ...run.rows,
        registrations: [
          ...run.rows.registrations,
          ...linesOf(11, { ...MARIA, hash: "hash-company" }, { holder_kind: "moral" }),
        ],
      },
    };
    expect(kinds(company)).toEqual([]);
  });

  it("fails on a line with two current registrations", () => {
    const run = cleanRun();
    run.rows.registrations[1] = {
      ...run.rows.registrations[1],
      replaced_at: null,
      replaced_by: null,
    };
    expectOnly(run, "line-two-holders");
  });

  it("fails on a folio out of the VIN-YYYY-NNNNNN format, and on a folio given twice", () => {
    for (const folio of [
      "VIN-2026-00001",
      "vin-2026-000001",
      "REC-2026-000001",
      "VIN-2026-000000",
    ]) {
      const run = cleanRun();
      run.rows.registrations[0] = { ...run.rows.registrations[0], folio };
      run.ledger = { registrations: run.ledger.registrations.slice(1) };
      expectOnly(run, "folio-invalid");
    }
    const twice = cleanRun();
    twice.rows.registrations[2] = { ...twice.rows.registrations[2], folio: "VIN-2026-000002" };
    twice.ledger = {
      registrations: twice.ledger.registrations.filter((entry) => entry.customer === 1),
    };
    expectOnly(twice, "folio-duplicate");
  });

  it("fails on a replaced registration that names no later registration of the same number", () => {
    const broken: Array<Partial<Row>> = [
      { replaced_by: null },
      { replaced_by: "r-unknown" },
      { replaced_by: "r1" },
    ];
    for (const change of broken) {
      const run = cleanRun();
      run.rows.registrations[1] = { ...run.rows.registrations[1], ...change };
      expectOnly(run, "replacement-broken");
    }
    // Replaced by one made before it.
    const earlier = cleanRun();
    earlier.rows.registrations[2] = {
      ...earlier.rows.registrations[2],
      registered_at: "2026-11-25T10:00:00.500Z",
    };
    expectOnly(earlier, "replacement-broken");
    // A current registration that says something replaced it.
    const current = cleanRun();
    current.rows.registrations[0] = { ...current.rows.registrations[0], replaced_by: "r3" };
    expectOnly(current, "replacement-broken");
  });

  it("fails on an online registration after three failed validations of its number in the 24 hours before", () => {
    const run = cleanRun();
    run.rows.registrationAttempts = [
      ...run.rows.registrationAttempts,
      failure("5500001100", "2026-11-24T10:00:01.000Z"),
      failure("5500001100", "2026-11-25T08:00:00.000Z"),
    ];
    expectOnly(run, "attempts-exceeded");
    // Three failures, but one more than 24 hours before: the path was open again.
    const aged = cleanRun();
    aged.rows.registrationAttempts = [
      ...aged.rows.registrationAttempts,
      failure("5500001100", "2026-11-24T09:59:59.000Z"),
      failure("5500001100", "2026-11-25T08:00:00.000Z"),
    ];
    expect(kinds(aged)).toEqual([]);
    // Failures after the registration, of another number, or in a store do not count.
    const unrelated = cleanRun();
    unrelated.rows.registrationAttempts = [
      ...unrelated.rows.registrationAttempts,
      failure("5500001100", "2026-11-25T10:00:00.001Z"),
      failure("5500009999", "2026-11-25T09:00:00.000Z"),
      { ...failure("5500001100", "2026-11-25T09:00:00.000Z"), channel: "tienda" },
    ];
    expect(kinds(unrelated)).toEqual([]);
    // A store's registration after three online failures is the way the rule sends the holder.
    const inStore = cleanRun();
    inStore.rows.registrations[0] = { ...inStore.rows.registrations[0], channel: "tienda" };
    inStore.rows.registrationAttempts = [
      failure("5500001100", "2026-11-25T09:00:00.000Z"),
      failure("5500001100", "2026-11-25T09:30:00.000Z"),
      failure("5500001100", "2026-11-25T09:45:00.000Z"),
    ];
    expect(kinds(inStore)).toEqual([]);
  });

  it("fails on a folio a customer was shown that the database does not have, or has for another line or holder", () => {
    const gone = cleanRun();
    gone.rows.registrations = gone.rows.registrations.slice(1);
    expectOnly(gone, "registration-missing");
    const otherLine = cleanRun();
    otherLine.ledger.registrations[0] = {
      ...otherLine.ledger.registrations[0],
      number: "5500001199",
    };
    expectOnly(otherLine, "registration-missing");
    const otherHolder = cleanRun();
    otherHolder.ledger.registrations[0] = {
      ...otherHolder.ledger.registrations[0],
      holderName: LUIS.name,
    };
    expectOnly(otherHolder, "registration-missing");
    const noFolio = cleanRun();
    noFolio.ledger.registrations[0] = { ...noFolio.ledger.registrations[0], folio: null };
    expect(kinds(noFolio)).toContain("registration-missing");
  });

  it("fails on a registration the store refused that it stored all the same", () => {
    const run = cleanRun();
    run.rows.registrations.push(
      registration({
        id: "r4",
        folio: "VIN-2026-000004",
        number: "5500001110",
        registered_at: "2026-11-25T10:01:00.000Z",
      }),
    );
    expectOnly(run, "registration-refused-but-stored");
    // Another holder's registration of that number is not the refused one.
    const other = cleanRun();
    other.rows.registrations.push(
      registration({
        id: "r4",
        folio: "VIN-2026-000004",
        number: "5500001110",
        registered_at: "2026-11-25T10:01:00.000Z",
        holder_name: LUIS.name,
        holder_key_hash: LUIS.hash,
        holder_key_masked: LUIS.masked,
      }),
    );
    expect(kinds(other)).toEqual([]);
  });
});
