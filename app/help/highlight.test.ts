import { describe, expect, it } from "vitest";
import { parseInline } from "./content";
import { foldWithMap } from "./fold";
import {
  excerptWindow,
  inlineText,
  highlightRuns,
  matchRanges,
  mergeRanges,
  markedWords,
  splitSegments,
  wordPrefixPositions,
} from "./highlight";
import { queryTerms } from "./query";

const marked = (text: string, query: string) =>
  markedWords(splitSegments(text, matchRanges(foldWithMap(text), queryTerms(query))));

describe("highlighting", () => {
  it("marks the words as written, whatever case and accents the search used", () => {
    expect(marked("Cambia de Teléfono sin perder tu número", "telefono NUMERO")).toEqual([
      "Teléfono",
      "número",
    ]);
    expect(marked("La Portabilidad es gratis", "portabilidad")).toEqual(["Portabilidad"]);
  });

  it("marks the whole word a shorter search matched", () => {
    expect(marked("Tus recargas se suman", "recarga")).toEqual(["recargas"]);
    expect(marked("Para configurarlo, abre Configuración", "configurar")).toEqual([
      "configurarlo",
      "Configuración",
    ]);
  });

  it("marks nothing inside a word", () => {
    expect(marked("Pago a crédito", "red")).toEqual([]);
    expect(wordPrefixPositions("la red y el credito", "red")).toEqual([3]);
  });

  it("splits the text into marked and unmarked segments that rebuild it exactly", () => {
    const text = "Escribe internet.conectamovil.mx en el APN.";
    const segments = splitSegments(
      text,
      matchRanges(foldWithMap(text), queryTerms("apn internet")),
    );
    expect(segments).toEqual([
      "Escribe ",
      { mark: "internet" },
      ".conectamovil.mx en el ",
      { mark: "APN" },
      ".",
    ]);
    expect(inlineText(segments)).toBe(text);
  });

  it("leaves text without matches as one plain string", () => {
    expect(splitSegments("Sin coincidencias", [])).toEqual(["Sin coincidencias"]);
  });

  it("merges overlapping matches into one mark", () => {
    expect(
      mergeRanges([
        { start: 5, end: 9 },
        { start: 0, end: 6 },
        { start: 12, end: 14 },
      ]),
    ).toEqual([
      { start: 0, end: 9 },
      { start: 12, end: 14 },
    ]);
    expect(marked("Recargas", "rec recarga")).toEqual(["Recargas"]);
  });

  it("keeps a link whole when a match falls inside it", () => {
    const runs = parseInline("Entra a [tu cuenta de recargas](/my-account/recarga) ahora");
    const text = foldWithMap(runs.map((run) => run.text).join(""));
    const rich = highlightRuns(runs, matchRanges(text, ["cuenta"]));
    expect(rich).toEqual([
      "Entra a ",
      { href: "/my-account/recarga", text: ["tu ", { mark: "cuenta" }, " de recargas"] },
      " ahora",
    ]);
  });

  it("marks text inside code spans", () => {
    const runs = parseInline("Usa `internet.conectamovil.mx` como APN");
    const text = foldWithMap(runs.map((run) => run.text).join(""));
    const rich = highlightRuns(runs, matchRanges(text, ["internet.conectamovil.mx"]));
    expect(rich).toEqual(["Usa ", { code: [{ mark: "internet.conectamovil.mx" }] }, " como APN"]);
  });
});

describe("excerpts", () => {
  const long =
    "Primero revisa que tu teléfono esté encendido y con batería suficiente para todo el proceso. " +
    "Después abre la configuración, busca la sección de redes móviles y escribe el APN que te dimos. " +
    "Por último reinicia el teléfono y espera unos minutos a que vuelva la señal de la red.";

  it("shows the stretch around the first match, cut between words", () => {
    const first = { start: long.indexOf("APN"), end: long.indexOf("APN") + 3 };
    const window = excerptWindow(long, first);
    expect(window.clippedStart).toBe(true);
    expect(window.start).toBeLessThan(first.start);
    expect(window.end).toBeGreaterThan(first.end);
    expect(long[window.start - 1]).toBe(" ");
    expect([" ", undefined]).toContain(long[window.end]);
    expect(window.end - window.start).toBeLessThanOrEqual(200);
  });

  it("starts at the beginning when the match is near it", () => {
    const window = excerptWindow(long, { start: 8, end: 14 });
    expect(window).toMatchObject({ start: 0, clippedStart: false, clippedEnd: true });
  });

  it("clips runs to the window", () => {
    const runs = parseInline("Uno dos `tres` cuatro [cinco](/plans) seis");
    const rich = highlightRuns(runs, [], { start: 4, end: 13 });
    expect(rich).toEqual(["dos ", { code: ["tres"] }, " "]);
  });
});
