import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Each table's rules live in the capability that owns it (decision 0085): only the owner's
 * modules insert, update or delete its rows, and every other module calls the owner. Reading is
 * free. This test reads the app's source (not tests, not migrations) for every write, by Kysely
 * (`insertInto("orders")`…) or by raw SQL (`insert into orders`…), and fails on a write outside
 * the table's owner, on a write whose table it cannot tell, and on a map that is no longer true.
 */
const TABLE_OWNERS: Record<string, readonly string[]> = {
  plans: ["app/catalog/"],
  orders: ["app/checkout/"],
  order_lines: ["app/checkout/"],
  order_links: ["app/checkout/"],
  shipped_sims: ["app/checkout/"],
  payments: ["app/payments/"],
  payment_events: ["app/payments/"],
  sandbox_checkouts: ["app/payments/sandbox/"],
  portability_requests: ["app/portability/"],
  topups: ["app/topup/"],
  esim_activations: ["app/esim/"],
  esim_replaced_profiles: ["app/esim/"],
  revoked_access: ["app/auth/"],
  /** When each account last signed out everywhere (decision 0134). */
  account_sign_outs: ["app/auth/"],
  account_emails: ["app/auth/"],
  /** When each passkey last signed its account in (decision 0122). */
  passkey_uses: ["app/auth/"],
  /** The operator's BSS when simulated (decision 0088): only the simulator writes its records. */
  bss_sim_lines: ["app/line/simulator.server.ts"],
  bss_sim_packages: ["app/line/simulator.server.ts"],
  bss_sim_usage: ["app/line/simulator.server.ts"],
  bss_sim_topups: ["app/line/simulator.server.ts"],
  bss_sim_activations: ["app/line/simulator.server.ts"],
  lines: ["app/line/"],
  line_jobs: ["app/line/"],
  line_codes: ["app/line/"],
  line_notices: ["app/line/"],
  /** A line's holder (issue 27, decision 0097): its registrations, attempts and holder locks. */
  registrations: ["app/registration/"],
  registration_attempts: ["app/registration/"],
  registration_locks: ["app/registration/"],
  /** A new registration's notices and their "no fui yo" (issue 47, decision 0136). */
  registration_notices: ["app/registration/"],
  /** Requests for an assisted validation, the online alternative to a store (decision 0140). */
  assisted_validations: ["app/registration/"],
  /** The checkout's holder and the lines waiting for their registration (decision 0101). */
  order_holders: ["app/registration/"],
  pending_registrations: ["app/registration/"],
  /** The numbers a checkout asked to keep, until the order is paid (decision 0106). */
  order_port_ins: ["app/portability/"],
  /** CFDI invoices, one per payment, and the fiscal data saved for the next (decision 0116). */
  invoices: ["app/invoicing/"],
  invoice_profiles: ["app/invoicing/"],
  /** Saved cards (decision 0119): the provider's customer and cards, the sandbox's vault. */
  payment_customers: ["app/payments/"],
  saved_cards: ["app/payments/"],
  sandbox_payment_methods: ["app/payments/sandbox/"],
  /** Automatic top-ups and their charges, one per line and period (decisions 0120, 0121). */
  auto_topups: ["app/auto-topup/"],
  auto_topup_charges: ["app/auto-topup/"],

  /** Every folio series' yearly sequence, shared by the capabilities. */
  folio_counters: ["app/db/"],
  /** Rows added by the queue (below the capabilities); their delivery written by the sender. */
  mail_queue: ["app/mail-queue/", "app/mail/"],
  /** The operator's changes, recorded by the capability that makes each one. */
  status_changes: ["app/audit/"],
  /** Created and written by rate-limiter-flexible, which only app/lib/rate-limit.ts drives. */
  rate_limits: ["app/lib/rate-limit.ts"],
};

/** Tables no code of ours writes: a library keeps them. */
const WRITTEN_BY_A_LIBRARY = new Set(["rate_limits"]);

const ROOT = path.resolve(__dirname, "../..");
const SOURCE_ROOTS = ["app", "server", "server.ts"];
const KYSELY_WRITES = new Set([
  "insertInto",
  "updateTable",
  "deleteFrom",
  "replaceInto",
  "mergeInto",
]);
/** A stand-in for an interpolation in a template: the table it names cannot be told. */
const HOLE = "\u0000";
const RAW_WRITES = [
  new RegExp(
    String.raw`\b(?:insert(?:\s+or\s+\w+)?\s+into|replace\s+into|merge\s+into|delete\s+from)\s+(?:"([a-z_]\w*)"|([a-z_]\w*)|(${HOLE}))`,
    "gi",
  ),
  new RegExp(String.raw`\bupdate\s+(?:"([a-z_]\w*)"|([a-z_]\w*)|(${HOLE}))\s+set\b`, "gi"),
];

interface Write {
  file: string;
  line: number;
  /** null: a table the code computes, which this test cannot check. */
  table: string | null;
  how: string;
}

function sourceFiles(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!existsSync(full)) return [];
  if (!entry.endsWith("/") && /\.(ts|tsx)$/.test(entry)) return [entry];
  return readdirSync(full, { recursive: true, encoding: "utf8" })
    .map((file) => path.posix.join(entry, file.split(path.sep).join("/")))
    .filter((file) => /\.(ts|tsx)$/.test(file) && !file.endsWith(".d.ts"))
    .filter((file) => !/\.test\.tsx?$/.test(file))
    .filter((file) => !file.startsWith("app/db/migrations/"));
}

/** The text of a string or template literal, with each interpolation as a hole. */
function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(HOLE);
  }
  return null;
}

function writesIn(file: string, text: string): Write[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const writes: Write[] = [];
  const lineOf = (node: ts.Node) =>
    source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      KYSELY_WRITES.has(node.expression.name.text)
    ) {
      const argument = node.arguments[0];
      const named =
        argument && (ts.isStringLiteral(argument) || ts.isNoSubstitutionTemplateLiteral(argument))
          ? argument.text.trim().split(/\s+/)[0]
          : null;
      writes.push({ file, line: lineOf(node), table: named, how: node.expression.name.text });
    }
    const literal = literalText(node);
    if (literal !== null) {
      for (const pattern of RAW_WRITES) {
        for (const match of literal.matchAll(pattern)) {
          const table = match[1] ?? match[2] ?? null;
          writes.push({
            file,
            line: lineOf(node),
            table: table?.toLowerCase() ?? null,
            how: match[0].replace(HOLE, "${…}"),
          });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return writes;
}

function appWrites(): Write[] {
  return SOURCE_ROOTS.flatMap(sourceFiles).flatMap((file) =>
    writesIn(file, readFileSync(path.join(ROOT, file), "utf8")),
  );
}

const ownedBy = (file: string, owners: readonly string[]) =>
  owners.some((owner) => (owner.endsWith("/") ? file.startsWith(owner) : file === owner));

/** The tables the schema declares (app/db/schema.ts's `Database`). */
function schemaTables(): string[] {
  const file = "app/db/schema.ts";
  const source = ts.createSourceFile(
    file,
    readFileSync(path.join(ROOT, file), "utf8"),
    ts.ScriptTarget.Latest,
  );
  const database = source.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === "Database",
  );
  if (!database) throw new Error("app/db/schema.ts declares no Database interface");
  return database.members.map((member) => (member.name as ts.Identifier).text);
}

describe("each table is written only by its owner", () => {
  const writes = appWrites();
  const where = (write: Write) => `${write.file}:${write.line} (${write.how})`;

  it("finds the writes it looks for (the scan itself works)", () => {
    expect(writes.some((write) => write.table === "orders")).toBe(true);
    expect(
      writesIn(
        "example.ts",
        [
          'db.insertInto("orders").values(row);',
          "db.updateTable('topups').set({});",
          'trx.deleteFrom("revoked_access");',
          'sql`INSERT INTO "payments" (id) VALUES (${id})`;',
          "const q = `update mail_queue set status = 'sent'`;",
          'const r = "delete from order_links where id = ?";',
          "sql`insert into ${table} values (1)`;",
          "db.updateTable(kind).set({});",
          "// a comment that says: insert into orders, delete from plans",
        ].join("\n"),
      ).map((write) => write.table),
    ).toEqual([
      "orders",
      "topups",
      "revoked_access",
      "payments",
      "mail_queue",
      "order_links",
      null,
      null,
    ]);
  });

  it("knows which table every write is to", () => {
    expect(writes.filter((write) => write.table === null).map(where)).toEqual([]);
  });

  it("writes each table only from the capability that owns it", () => {
    const outside = writes
      .filter((write) => write.table !== null)
      .filter((write) => {
        const owners = TABLE_OWNERS[write.table as string];
        return !owners || !ownedBy(write.file, owners);
      })
      .map((write) => `${write.table}: ${where(write)}`);
    expect(outside).toEqual([]);
  });

  it("has an owner for every table of the schema, and no table the schema lacks", () => {
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual(
      [...schemaTables(), ...WRITTEN_BY_A_LIBRARY].sort(),
    );
  });

  it("names only owners that do write their table (the map stays true)", () => {
    const idle = Object.entries(TABLE_OWNERS)
      .filter(([table]) => !WRITTEN_BY_A_LIBRARY.has(table))
      .flatMap(([table, owners]) =>
        owners
          .filter(
            (owner) =>
              !writes.some((write) => write.table === table && ownedBy(write.file, [owner])),
          )
          .map((owner) => `${table} → ${owner}`),
      );
    expect(idle).toEqual([]);
  });
});

describe("the mail queue is below the capabilities", () => {
  /** Who may import app/mail: itself, the routes, and the server's composition (services, types). */
  const MAY_IMPORT_MAIL = ["app/mail/", "app/routes/", "app/services.server.ts", "app/context.ts"];

  it("no capability imports app/mail (they queue through app/mail-queue)", () => {
    const offenders = SOURCE_ROOTS.flatMap(sourceFiles)
      .filter((file) => !ownedBy(file, MAY_IMPORT_MAIL))
      .filter((file) => {
        const text = readFileSync(path.join(ROOT, file), "utf8");
        const imports = [...text.matchAll(/\bfrom\s+["']([^"']+)["']/g)].map((match) =>
          match[1].startsWith(".")
            ? path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]))
            : match[1].replace(/^~\//, "app/"),
        );
        return imports.some((target) => target.startsWith("app/mail/"));
      });
    expect(offenders).toEqual([]);
  });
});
