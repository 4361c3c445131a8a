import { describe, expect, it } from "vitest";
import registration from "../../public/locales/es/registration.json";
import { formatDay } from "~/lib/dates";
import { KEPT_REGISTRATION_DATA, REGISTRATION_RULES } from "~/registration/registration-rules";
import { HELP_ARTICLES, HELP_CATEGORIES } from "./articles.data";
import { answerTexts, parseInline, plainText, type HelpArticle } from "./content";
import {
  KEPT_REGISTRATION_LABELS,
  registrationArticles,
  type RegistrationRuleValues,
} from "./registration-articles";
import { buildHelpIndex, searchHelp } from "./search";

const textOf = (article: HelpArticle) =>
  [article.question, ...answerTexts(article.answer)]
    .map((text) => plainText(parseInline(text)))
    .join("\n");

const curpArticle = (articles: HelpArticle[]) => {
  const found = articles.find((article) => article.slug === "vincular-linea-con-curp");
  if (!found) throw new Error("the CURP article is missing");
  return found;
};
const howTo = (articles: HelpArticle[]) => {
  const found = articles.find((article) => article.slug === "como-vincular-mi-curp");
  if (!found) throw new Error("the how-to article is missing");
  return found;
};

const RULE_DATES = [
  REGISTRATION_RULES.publishedOn,
  REGISTRATION_RULES.requiredFrom,
  REGISTRATION_RULES.deadline,
  REGISTRATION_RULES.suspensionFrom,
];

describe("the help centre's CURP article", () => {
  const article = textOf(curpArticle(HELP_ARTICLES));

  it("states the rule's dates, as the site writes dates", () => {
    expect(formatDay(REGISTRATION_RULES.deadline)).toBe("30 de junio de 2026");
    for (const day of RULE_DATES) expect(article).toContain(formatDay(day));
  });

  it("states the line limit, the numbers a suspended line reaches and what is kept", () => {
    expect(article).toContain(`hasta ${REGISTRATION_RULES.maxLinesPerPerson} líneas`);
    for (const number of REGISTRATION_RULES.reachableWhileSuspended) {
      expect(article).toContain(number);
    }
    expect(KEPT_REGISTRATION_LABELS).toEqual(
      KEPT_REGISTRATION_DATA.map((name) => registration.kept[name]),
    );
    for (const label of KEPT_REGISTRATION_LABELS) expect(article).toContain(label);
  });

  it("states the online attempts and links the registration", () => {
    const steps = textOf(howTo(HELP_ARTICLES));
    expect(steps).toContain(
      `${REGISTRATION_RULES.onlineAttempts} intentos fallidos en ${REGISTRATION_RULES.onlineAttemptsWindowHours} horas`,
    );
    const links = answerTexts(howTo(HELP_ARTICLES).answer).flatMap((text) =>
      parseInline(text).flatMap((run) => (run.kind === "link" ? [run.href] : [])),
    );
    expect(links).toContain("/registro-de-linea");
    // Online, the photo of the ID and a selfie are asked (decision 0136), and said not to be kept.
    expect(steps).toMatch(/sube una foto de ella y una selfie/);
    expect(steps).toContain("No guardamos esas fotos.");
  });

  it("follows the rule wherever it changes: nothing of it is typed into the text", () => {
    const other: RegistrationRuleValues = {
      ...REGISTRATION_RULES,
      publishedOn: "2027-02-03",
      requiredFrom: "2027-03-04",
      deadline: "2027-08-31",
      suspensionFrom: "2027-09-01",
      maxLinesPerPerson: 7,
      reachableWhileSuspended: ["911", "065"],
      onlineAttempts: 5,
      onlineAttemptsWindowHours: 48,
    };
    const articles = registrationArticles(other);
    const text = articles.map(textOf).join("\n");
    for (const day of [
      other.publishedOn,
      other.requiredFrom,
      other.deadline,
      other.suspensionFrom,
    ]) {
      expect(text).toContain(formatDay(day));
    }
    for (const day of RULE_DATES) expect(text).not.toContain(formatDay(day));
    expect(text).toContain("hasta 7 líneas");
    expect(text).toContain("(911 y 065)");
    expect(text).toContain("5 intentos fallidos en 48 horas");
    expect(text).not.toMatch(/\b10 líneas|\b3 intentos|\b24 horas|\b07[49]\b|\b08[89]\b/);
  });
});

const MONTHS =
  "enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre";

/** Every date, line limit or attempt count in `text` that the registration rule does not hold. */
function unbackedRuleFigures(text: string): string[] {
  const dates = new Set(RULE_DATES.map(formatDay));
  const unbacked: string[] = [];
  for (const match of text.matchAll(new RegExp(`\\d{1,2} de (?:${MONTHS}) de \\d{4}`, "g"))) {
    if (!dates.has(match[0])) unbacked.push(match[0]);
  }
  for (const match of text.matchAll(/(\d+) líneas/g)) {
    if (Number(match[1]) !== REGISTRATION_RULES.maxLinesPerPerson) unbacked.push(match[0]);
  }
  for (const match of text.matchAll(/(\d+) intentos? fallidos?/g)) {
    if (Number(match[1]) !== REGISTRATION_RULES.onlineAttempts) unbacked.push(match[0]);
  }
  return unbacked;
}

describe("the help centre's registration figures", () => {
  it("finds a date, a line limit or an attempt count the rule does not hold", () => {
    expect(
      unbackedRuleFigures(
        "Hasta el 31 de junio de 2026, hasta 12 líneas y 4 intentos fallidos; el 30 de junio de 2026, 10 líneas, 3 intentos fallidos.",
      ),
    ).toEqual(["31 de junio de 2026", "12 líneas", "4 intentos fallidos"]);
  });

  it("states only the rule's dates, line limit and attempts, in every answer", () => {
    for (const article of HELP_ARTICLES) {
      expect(unbackedRuleFigures(textOf(article)), article.slug).toEqual([]);
    }
  });
});

describe("searching the help centre for the registration", () => {
  const index = buildHelpIndex(HELP_CATEGORIES, HELP_ARTICLES);
  const found = (query: string) =>
    searchHelp(index, query).hits.map((hit) => hit.entry.article.slug);

  it.each(["curp", "registro", "suspendida", "registrar mi línea"])("finds it by %j", (query) => {
    expect(found(query).slice(0, 3)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^(vincular-linea-con-curp|como-vincular-mi-curp)$/),
      ]),
    );
  });
});
