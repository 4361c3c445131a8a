import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { INVOICING_PATH } from "~/invoicing/paths";
import { DEFAULT_INVOICE_MONTHS_AFTER_PAYMENT, invoicingDeadline } from "~/invoicing/deadline";
import { addDays } from "~/lib/dates";
import { mexicoCityDate } from "~/lib/mexico-city-days";
import { type Line, RUNNING_OUT, runningOut } from "~/line/line";
import { BALANCE_PATH, LINES_PATH, SIM_ACTIVATION_PATH } from "~/line/paths";
import { isMailTemplate } from "~/mail/compose.server";
import { PORTABILITY_PATH } from "~/portability/paths";
import { REGISTRATION_PATH } from "~/registration/paths";
import { TOPUP_PATH } from "~/topup/paths";
import { HELP_ARTICLES } from "./articles.data";
import { answerTexts, CHAT_LINK, parseInline, plainText } from "./content";
import {
  invoicingExampleText,
  invoicingWindowText,
  RUNNING_OUT_ALERT_TEXT,
  RUNNING_OUT_DATA_TEXT,
  RUNNING_OUT_DAYS_TEXT,
} from "./product-facts";

/*
 * Issue 48, decision 0142: the help centre says only what the product does. Each claim it makes
 * about the product — a page to go to, an alert it sends, a deadline — is checked against the
 * code that makes it true, as content.test.ts checks prices against the catalogue.
 */

const articleTexts = HELP_ARTICLES.flatMap((article) =>
  [article.question, ...answerTexts(article.answer)].map((source) => ({
    slug: article.slug,
    source,
    text: plainText(parseInline(source)),
  })),
);

const articleOf = (slug: string) => {
  const article = HELP_ARTICLES.find((candidate) => candidate.slug === slug);
  if (!article) throw new Error(`no article ${slug}`);
  return answerTexts(article.answer)
    .map((source) => plainText(parseInline(source)))
    .join(" ");
};

/** The sentences of every answer, one by one. */
const sentences = articleTexts.flatMap(({ slug, text }) =>
  text
    .split(/(?<=[.:])\s+(?=[A-ZÁÉÍÓÚÑ¿])/)
    .map((sentence) => ({ slug, sentence: sentence.trim() })),
);

/**
 * The addresses app/routes answers, as patterns (React Router's flat routes: `.` a slash, `$x` a
 * parameter, `_index` the folder's own page, `x_` out of its layout, `_x` a layout alone). The
 * catch-all `$.tsx` is the 404 page: it matches nothing here.
 */
function routePatterns(): RegExp[] {
  return readdirSync(path.resolve("app/routes"))
    .filter((file) => /\.tsx?$/.test(file) && !/\.(test|server)\./.test(file) && file !== "$.tsx")
    .map((file) => {
      const segments = file
        .replace(/\.tsx?$/, "")
        .split(".")
        .filter((segment) => segment !== "_index" && !segment.startsWith("_"))
        .map((segment) => segment.replace(/_$/, ""))
        .map((segment) => (segment.startsWith("$") ? "[^/]+" : segment.replace(/[-]/g, "\\-")));
      return new RegExp(`^/${segments.join("/")}$`);
    });
}

/** What a path names once its query and fragment are set apart. */
const pathOf = (href: string) => href.replace(/[?#].*$/, "");

function resolves(href: string, patterns: RegExp[]): boolean {
  const target = pathOf(href);
  const document = /^\/docs\/([\w-]+)\.pdf$/.exec(target);
  // A legal PDF is built from its text source (scripts/build-legal-pdfs.mjs).
  if (document) return existsSync(path.resolve("content/legal", `${document[1]}.md`));
  return patterns.some((pattern) => pattern.test(target));
}

describe("the help centre's pages", () => {
  const patterns = routePatterns();

  it("the route patterns read app/routes as React Router does", () => {
    for (const known of ["/", "/recarga", "/recarga/abc", "/my-account/lineas", "/saldo"]) {
      expect(resolves(known, patterns), known).toBe(true);
    }
    for (const unknown of ["/mi-cuenta", "/recargas", "/my-account/lineas/1/2", "/docs/nada.pdf"]) {
      expect(resolves(unknown, patterns), unknown).toBe(false);
    }
  });

  it("every page an answer links to, or names as code, is a page of this site", () => {
    const named = articleTexts.flatMap(({ slug, source }) =>
      parseInline(source).flatMap((run) =>
        (run.kind === "link" && run.href !== CHAT_LINK) ||
        (run.kind === "code" && run.text.startsWith("/"))
          ? [{ slug, href: run.kind === "link" ? run.href : run.text }]
          : [],
      ),
    );
    expect(named.length).toBeGreaterThan(10);
    for (const { slug, href } of named)
      expect(resolves(href, patterns), `${slug}: ${href}`).toBe(true);
  });

  it("a page that has a path constant is linked with it, not typed in", () => {
    const source = readFileSync(path.resolve("app/help/articles.data.ts"), "utf8");
    const constants = [
      BALANCE_PATH,
      INVOICING_PATH,
      LINES_PATH,
      PORTABILITY_PATH,
      REGISTRATION_PATH,
      SIM_ACTIVATION_PATH,
      TOPUP_PATH,
    ];
    for (const value of constants) {
      expect(source, value).not.toMatch(new RegExp(`\\]\\(${value}[)?#]`));
    }
  });

  it("the balance is told where the site shows it, not only at *100# (issue 48)", () => {
    const balance = HELP_ARTICLES.find((article) => article.slug === "consultar-saldo")!;
    const hrefs = answerTexts(balance.answer).flatMap((source) =>
      parseInline(source).flatMap((run) => (run.kind === "link" ? [run.href] : [])),
    );
    expect(hrefs).toEqual(expect.arrayContaining([BALANCE_PATH, LINES_PATH]));
    expect(articleOf("consultar-saldo")).not.toMatch(/no aparecen ahí|solo con \*100#/);
  });
});

describe("the invoicing deadline the help centre states", () => {
  it("is the invoicing rule's, with its example computed by the rule", () => {
    const text = articleOf("factura-de-recargas");
    expect(text).toContain(invoicingWindowText(DEFAULT_INVOICE_MONTHS_AFTER_PAYMENT));
    expect(text).toContain(invoicingExampleText(DEFAULT_INVOICE_MONTHS_AFTER_PAYMENT));
    // Not by e-mail within the month, as it said before /facturacion existed.
    expect(text).not.toMatch(/mismo mes|escríbenos a \S+@/);
    const hrefs = answerTexts(HELP_ARTICLES.find((a) => a.slug === "factura-de-recargas")!.answer)
      .flatMap((source) => parseInline(source))
      .flatMap((run) => (run.kind === "link" ? [run.href] : []));
    expect(hrefs).toContain(INVOICING_PATH);
  });

  it("says the day the rule ends on, for every number of months the configuration allows", () => {
    for (const months of [0, 1, 2, 12]) {
      const deadline = invoicingDeadline("2026-11-15T18:00:00.000Z", months);
      // The last instant open is the day before the deadline's, in Mexico City.
      const lastOpen = mexicoCityDate(new Date(Date.parse(deadline) - 1));
      const [year, month, day] = lastOpen.split("-").map(Number);
      const monthName = new Intl.DateTimeFormat("es-MX", { month: "long", timeZone: "UTC" }).format(
        new Date(Date.UTC(year, month - 1, 1)),
      );
      expect(invoicingExampleText(months), `${months} → ${year}`).toMatch(
        new RegExp(`hasta el ${day} de ${monthName}$`),
      );
    }
    // The published rates say the same.
    const rates = readFileSync(path.resolve("content/legal/tarifas.md"), "utf8");
    expect(rates).toContain(`conectamovil.mx${INVOICING_PATH} ${invoicingWindowText()}`);
    expect(invoicingExampleText(1)).toBe(
      "una compra pagada el 15 de noviembre la puedes facturar hasta el 31 de diciembre",
    );
  });
});

describe("the alerts the help centre promises", () => {
  const line = (remainingShare: number, endsInDays: number, now: Date): Line => ({
    number: "5512345678",
    status: "active",
    package: {
      offerId: "conecta-200",
      name: "Conecta 200",
      startsAt: addDays(now.toISOString(), -10),
      endsAt: addDays(now.toISOString(), endsInDays),
    },
    balances: {
      moneyMxn: 0,
      dataMb: { total: 10_000, remaining: 10_000 * remainingShare },
      socialDataMb: null,
      minutes: null,
      sms: null,
    } as unknown as Line["balances"],
  });

  it("are the running-out e-mail's, at the share and days the line's rule sends it", () => {
    const now = new Date("2026-12-07T12:00:00.000Z");
    expect(RUNNING_OUT_DATA_TEXT).toBe(`el ${Math.round(RUNNING_OUT.dataShare * 100)} %`);
    expect(runningOut(line(RUNNING_OUT.dataShare, 20, now), now)).toBe("data");
    expect(runningOut(line(RUNNING_OUT.dataShare + 0.01, 20, now), now)).toBeNull();
    expect(RUNNING_OUT_DAYS_TEXT).toMatch(new RegExp(`^${RUNNING_OUT.daysLeft} días?$`));
    expect(runningOut(line(0.5, RUNNING_OUT.daysLeft, now), now)).toBe("ending");
    expect(runningOut(line(0.5, RUNNING_OUT.daysLeft + 0.1, now), now)).toBeNull();
    // And an e-mail exists to send it.
    expect(isMailTemplate("line_running_out")).toBe(true);
    for (const slug of ["consultar-saldo", "se-acabaron-mis-datos"]) {
      expect(articleOf(slug), slug).toContain(RUNNING_OUT_ALERT_TEXT);
    }
  });

  it("promise no alert nothing sends: every 'te avisamos' names what sends it", () => {
    // The store sends by SMS only the codes that prove a line and the notice of a registration;
    // its automatic alerts go by e-mail (the running-out e-mail). A notice by SMS the help centre
    // states is the operator's own, promised by a legal document that says the same.
    const operatorNotices: Record<string, { document: string; says: string }> = {
      "politica-de-uso-justo": { document: "politica-de-uso-justo", says: "previo aviso por SMS" },
      "roaming-estados-unidos-y-canada": {
        document: "politica-de-uso-justo",
        says: "te avisaremos por SMS",
      },
      "que-pasa-si-no-recargo": { document: "contrato-de-adhesion", says: "previo aviso por SMS" },
    };
    const alerts = sentences.filter(({ sentence }) => /\bavis\w*\b[^.]*\bSMS\b/i.test(sentence));
    expect(alerts.length).toBeGreaterThan(0);
    for (const { slug, sentence } of alerts) {
      const notice = operatorNotices[slug];
      expect(notice, `${slug}: ${sentence}`).toBeDefined();
      const legal = readFileSync(path.resolve("content/legal", `${notice!.document}.md`), "utf8");
      expect(legal, `${slug}: ${sentence}`).toContain(notice!.says);
    }
    // Automatic e-mail alerts are the running-out e-mail's, in its words.
    for (const { slug, sentence } of sentences) {
      if (/te avisamos por correo cuando/.test(sentence)) {
        expect(RUNNING_OUT_ALERT_TEXT, `${slug}: ${sentence}`).toContain(sentence);
      }
    }
    const all = articleTexts.map(({ text }) => text).join(" ");
    expect(all).not.toMatch(/\b80 %|\b3 días antes de que venza/);
  });

  it("are the ones the code of commercial practices promises, too", () => {
    const text = readFileSync(
      path.resolve("content/legal/codigo-de-practicas-comerciales.md"),
      "utf8",
    ).replace(/\s+/g, " ");
    expect(text).toContain(
      `te avisamos por correo cuando te quede el ${Math.round(RUNNING_OUT.dataShare * 100)}% de tus datos o falten ${RUNNING_OUT.daysLeft} días para que venza tu plan`,
    );
    expect(text).not.toMatch(/avisamos por SMS cuando/);
    expect(text).toContain(`conectamovil.mx${BALANCE_PATH}`);
  });
});
