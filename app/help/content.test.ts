import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import {
  FAIR_USE,
  NIP_VALIDITY_DAYS,
  NUMBER_KEPT_MONTHS,
  PHYSICAL_SIM_DELIVERY,
  PORTABILITY_MAX_HOURS,
  SHIPPING_PRICE,
  SIM_PRICE,
  SIM_REPLACEMENT_PRICE,
} from "~/catalog/terms";
import { LINES_PATH, SIM_ACTIVATION_PATH } from "~/line/paths";
import { formatData, TOPUP_AMOUNTS } from "~/topup/amounts";
import { HELP_ARTICLES, HELP_CATEGORIES } from "./articles.data";
import { answerTexts, isAllowedHref, parseInline, plainText } from "./content";

describe("inline markup", () => {
  it("reads code spans and links, and leaves everything else as text", () => {
    expect(
      parseInline("Escribe `internet.conectamovil.mx` en [Portabilidad](/portabilidad)."),
    ).toEqual([
      { kind: "text", text: "Escribe " },
      { kind: "code", text: "internet.conectamovil.mx" },
      { kind: "text", text: " en " },
      { kind: "link", text: "Portabilidad", href: "/portabilidad" },
      { kind: "text", text: "." },
    ]);
    expect(parseInline("Sin marcas <b>ni HTML</b>")).toEqual([
      { kind: "text", text: "Sin marcas <b>ni HTML</b>" },
    ]);
  });

  it("gives the text a customer reads", () => {
    expect(plainText(parseInline("Marca `*100#` o [escríbenos](chat)"))).toBe(
      "Marca *100# o escríbenos",
    );
  });

  it("allows only links to this site's pages and to the chat", () => {
    expect(isAllowedHref("/portabilidad")).toBe(true);
    expect(isAllowedHref("/docs/politica-de-uso-justo.pdf")).toBe(true);
    expect(isAllowedHref("chat")).toBe(true);
    expect(isAllowedHref("https://example.com")).toBe(false);
    expect(isAllowedHref("//example.com")).toBe(false);
    expect(isAllowedHref("javascript:alert(1)")).toBe(false);
  });
});

const everyText = HELP_ARTICLES.flatMap((article) => [
  article.question,
  ...answerTexts(article.answer),
]);
/** Also what the page shows besides the answers, and the search keywords. */
const everyShownText = [
  ...everyText,
  ...HELP_ARTICLES.flatMap((article) => article.keywords),
  ...HELP_CATEGORIES.flatMap((category) => [category.name, category.description]),
];
const allContent = everyText.map((text) => plainText(parseInline(text))).join("\n");

describe("the help centre's content", () => {
  it("has at least 24 questions, each in a known category, with unique stable slugs", () => {
    expect(HELP_ARTICLES.length).toBeGreaterThanOrEqual(24);
    const slugs = HELP_ARTICLES.map((article) => article.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    const categories = new Set(HELP_CATEGORIES.map((category) => category.slug));
    for (const article of HELP_ARTICLES) expect(categories.has(article.category)).toBe(true);
  });

  it("gives every category questions, and every question a real answer", () => {
    for (const category of HELP_CATEGORIES) {
      expect(HELP_ARTICLES.some((article) => article.category === category.slug)).toBe(true);
    }
    for (const article of HELP_ARTICLES) {
      expect(article.question).toMatch(/\?$/);
      const answerLength = answerTexts(article.answer).join(" ").length;
      expect(answerLength, article.slug).toBeGreaterThan(200);
    }
  });

  it("uses only well-formed markup and links that lead somewhere on this site", () => {
    for (const text of everyText) {
      const runs = parseInline(text);
      for (const run of runs) {
        if (run.kind === "link") expect(isAllowedHref(run.href), run.href).toBe(true);
        // A stray backtick or bracket means a markup typo the customer would see.
        if (run.kind === "text") expect(run.text, text).not.toMatch(/[`[\]]/);
      }
    }
  });

  it("answers what Mexican prepaid customers ask", () => {
    const topics: Array<[string, RegExp]> = [
      ["activation", /activ/i],
      ["APN name", /internet\.conectamovil\.mx/],
      ["APN on Android and iPhone", /Nombres de punto de acceso[\s\S]*Red de datos celulares/],
      ["balance", /\*100#/],
      ["eSIM compatibility", /EID/],
      ["coverage", /cobertura/i],
      ["portability NIP by call or SMS to 051", /llama al `?051`?[\s\S]*SMS/i],
      [`NIP valid ${NIP_VALIDITY_DAYS} days`, new RegExp(`${NIP_VALIDITY_DAYS} días naturales`)],
      [
        `porting within ${PORTABILITY_MAX_HOURS} hours`,
        new RegExp(`${PORTABILITY_MAX_HOURS} horas`),
      ],
      ["top-ups", /recarga/i],
      ["payment methods", /Visa, Mastercard y American Express/],
      ["SIM delivery", /días hábiles/],
      ["roaming USA and Canada", /Estados Unidos y Canadá/],
      ["fair use", /uso justo/i],
      ["hotspot", /Compartir Internet/],
      ["lost or stolen SIM", /robo|robada/i],
      ["CURP registry deadline", /30 de junio de 2026/],
    ];
    for (const [topic, pattern] of topics) expect(allContent, topic).toMatch(pattern);
  });
});

describe("the help centre and the legal documents", () => {
  const legal = (slug: string) =>
    readFileSync(path.resolve("content/legal", `${slug}.md`), "utf8").replace(/\s+/g, " ");

  // Where an answer states a policy, it must be the published one: when a document changes, this
  // test points at the answers to update.
  const thousands = (value: number) => new Intl.NumberFormat("es-MX").format(value);
  const sharedFacts: Array<[string, string, RegExp]> = [
    [
      `number kept ${NUMBER_KEPT_MONTHS} months after expiry`,
      "contrato-de-adhesion",
      new RegExp(`${NUMBER_KEPT_MONTHS} meses`),
    ],
    ["cash top-ups at stores", "tarifas", /efectivo/],
    [
      "invoicing at /facturacion until the end of the month after the payment's",
      "tarifas",
      /último día del mes siguiente al de tu pago/,
    ],
    [
      "fair-use voice threshold",
      "politica-de-uso-justo",
      new RegExp(`${thousands(FAIR_USE.minutes)} minutos`),
    ],
    ["fair-use social threshold", "politica-de-uso-justo", new RegExp(`${FAIR_USE.socialGb} GB`)],
    [
      "fair-use social speed",
      "politica-de-uso-justo",
      new RegExp(`${FAIR_USE.socialThrottleKbps} kbps`),
    ],
    [
      `NIP valid ${NIP_VALIDITY_DAYS} days`,
      "portabilidad",
      new RegExp(`${NIP_VALIDITY_DAYS} días naturales`),
    ],
    [
      `porting within ${PORTABILITY_MAX_HOURS} hours`,
      "portabilidad",
      new RegExp(`${PORTABILITY_MAX_HOURS} horas`),
    ],
  ];
  for (const [fact, document, pattern] of sharedFacts) {
    it(`agree on: ${fact}`, () => {
      expect(legal(document), document).toMatch(pattern);
      expect(allContent, "help centre").toMatch(pattern);
    });
  }
});

/*
 * The help centre once promised a $50 SIM that checkout never charged, and top-ups worth less data
 * than the plans at the same price. Its figures now come from the data; these tests make sure no
 * price, data amount or delivery time is typed into an answer again.
 */
const PRICES = new Set([
  ...PLAN_CATALOGUE.map((plan) => plan.price),
  ...TOPUP_AMOUNTS.map((offer) => offer.amount),
  SIM_PRICE,
  SHIPPING_PRICE,
  SIM_REPLACEMENT_PRICE.physical,
  SIM_REPLACEMENT_PRICE.esim,
]);
const dataAmounts = (unit: "MB" | "GB") => [
  ...TOPUP_AMOUNTS.map((offer) => formatData(offer.dataMb)).filter((data) => data.unit === unit),
  ...(unit === "GB" ? PLAN_CATALOGUE.map((plan) => ({ value: plan.dataGb })) : []),
];
const DATA = {
  GB: new Set([...dataAmounts("GB").map((data) => data.value), FAIR_USE.socialGb]),
  MB: new Set(dataAmounts("MB").map((data) => data.value)),
};
const { cities, elsewhere, stalledDays } = PHYSICAL_SIM_DELIVERY;
const DELIVERY_DAYS = new Set<number>([
  cities.minDays,
  cities.maxDays,
  elsewhere.maxDays,
  stalledDays,
]);

/** es-MX figures: "1,299.00" is 1299. */
const figure = (text: string) => Number(text.replace(/,/g, ""));

/** Every price, data amount or delivery time in `text` that the data does not hold. */
function unbackedFigures(text: string): string[] {
  const unbacked: string[] = [];
  for (const match of text.matchAll(/\$\s?(\d[\d,]*(?:\.\d+)?)/g)) {
    if (!PRICES.has(figure(match[1]))) unbacked.push(match[0]);
  }
  for (const match of text.matchAll(/(\d[\d,]*(?:\.\d+)?)\s?(GB|MB)\b/g)) {
    if (!DATA[match[2] as "GB" | "MB"].has(figure(match[1]))) unbacked.push(match[0]);
  }
  // "de 2 a 5 días hábiles": every number before "días hábiles" in the same phrase.
  for (const match of text.matchAll(/((?:\d+\s(?:a|y|o)\s)*\d+)\s(?:días? hábil(?:es)?)/g)) {
    for (const days of match[1].match(/\d+/g) ?? []) {
      if (!DELIVERY_DAYS.has(Number(days))) unbacked.push(match[0]);
    }
  }
  return unbacked;
}

describe("the help centre's figures", () => {
  it("finds a price, a data amount or a delivery time the data does not hold", () => {
    expect(unbackedFigures("La SIM física cuesta $49 y llega en 2 a 6 días hábiles.")).toEqual([
      "$49",
      "2 a 6 días hábiles",
    ]);
    expect(unbackedFigures("Recarga $200 y recibe 8 GB, o $1,299.00 por 300 MB.")).toEqual([
      "$1,299.00",
      "8 GB",
      "300 MB",
    ]);
    expect(unbackedFigures("$200.00: 10 GB; $20: 200 MB; de 2 a 5 días hábiles.")).toEqual([]);
  });

  it("states only prices, data amounts and delivery times that the data holds", () => {
    for (const text of everyShownText) {
      expect(unbackedFigures(plainText(parseInline(text))), text).toEqual([]);
    }
  });

  it("prices a SIM as the terms do: with a plan, or as a replacement", () => {
    // $50 is also a plan's price, so the scan above alone would not catch "la SIM cuesta $50".
    const replacementArticles = new Set(["reposicion-de-sim", "cambie-de-telefono-esim"]);
    for (const article of HELP_ARTICLES) {
      const allowed = replacementArticles.has(article.slug)
        ? [SIM_REPLACEMENT_PRICE.physical, SIM_REPLACEMENT_PRICE.esim, SHIPPING_PRICE]
        : [SIM_PRICE, SHIPPING_PRICE];
      for (const text of answerTexts(article.answer).filter((candidate) => /SIM/.test(candidate))) {
        for (const match of plainText(parseInline(text)).matchAll(/\$\s?(\d[\d,]*(?:\.\d+)?)/g)) {
          expect(allowed, `${article.slug}: ${text}`).toContain(figure(match[1]));
        }
      }
    }
  });

  it("states the prices and benefits of every top-up on offer", () => {
    for (const offer of TOPUP_AMOUNTS) {
      const { value, unit } = formatData(offer.dataMb);
      expect(allContent).toContain(`${value} ${unit} por ${offer.validityDays} día`);
    }
  });

  it("links top-ups to the public page, and promises no consumption view in the account", () => {
    const links = everyText.flatMap((text) =>
      parseInline(text).flatMap((run) => (run.kind === "link" ? [run.href] : [])),
    );
    expect(links).toContain("/recarga");
    expect(links).not.toContain("/my-account/recarga");
    for (const text of everyText.filter((candidate) => candidate.includes("(/my-account)"))) {
      expect(text, text).not.toMatch(/(tu|ver tu) consumo/);
    }
  });
});

/*
 * The help centre once said the order's e-mail tells the customer their number. The number is
 * given when the line is activated (~/line/activations.server.ts), after every order e-mail has
 * gone, and those e-mails carry the SIM's ICCID; the SIM's card cannot hold it either. The places
 * that do show it: the order's page (esim-view.server.ts, order-sim-lines.server.ts), /activar
 * and the account's lines.
 */
describe("where the help centre says a line's number is shown", () => {
  const numberArticle = HELP_ARTICLES.find((article) => article.slug === "cual-es-mi-numero")!;

  it("names only the places that show it", () => {
    const texts = answerTexts(numberArticle.answer).map((text) => plainText(parseInline(text)));
    for (const text of texts) expect(text).not.toMatch(/correo|tarjeta de plástico|impres/i);
    const links = answerTexts(numberArticle.answer).join("\n");
    expect(links).toContain(`(${SIM_ACTIVATION_PATH})`);
    expect(links).toContain(`(${LINES_PATH})`);
    expect(links).toMatch(/página de tu pedido/);
  });

  it("never says an e-mail brings the line's number", () => {
    for (const text of everyShownText) {
      const plain = plainText(parseInline(text));
      for (const sentence of plain.split(/(?<=[.:])\s/)) {
        expect(sentence).not.toMatch(/(correo|e-?mail)\b.*\btu número\b(?! de pedido)/i);
      }
    }
  });
});
