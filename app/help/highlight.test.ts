import { describe, expect, it } from "vitest";
import { parseInline } from "./content";
import { foldWithMap } from "./fold";
import {
  excerptWindow,
  highlightRuns,
  matchRanges,
  mergeRanges,
  splitParts,
  wordPrefixPositions,
} from "./highlight";
import { queryTerms } from "./search";

const marked = (text: string, query: string) =>
  splitParts(text, matchRanges(foldWithMap(text), queryTerms(query)))
    .filter((part) => part.mark)
    .map((part) => part.text);

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

  it("splits the text into marked and unmarked parts that rebuild it exactly", () => {
    const text = "Escribe internet.conectamovil.mx en el APN.";
    const parts = splitParts(text, matchRanges(foldWithMap(text), queryTerms("apn internet")));
    expect(parts).toEqual([
      { text: "Escribe " },
      { text: "internet", mark: true },
      { text: ".conectamovil.mx en el " },
      { text: "APN", mark: true },
      { text: "." },
    ]);
    expect(parts.map((part) => part.text).join("")).toBe(text);
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
      { kind: "text", parts: [{ text: "Entra a " }] },
      {
        kind: "link",
        href: "/my-account/recarga",
        parts: [{ text: "tu " }, { text: "cuenta", mark: true }, { text: " de recargas" }],
      },
      { kind: "text", parts: [{ text: " ahora" }] },
    ]);
  });

  it("marks text inside code spans", () => {
    const runs = parseInline("Usa `internet.conectamovil.mx` como APN");
    const text = foldWithMap(runs.map((run) => run.text).join(""));
    const rich = highlightRuns(runs, matchRanges(text, ["internet.conectamovil.mx"]));
    expect(rich[1]).toEqual({
      kind: "code",
      parts: [{ text: "internet.conectamovil.mx", mark: true }],
    });
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
    expect(rich.map((run) => run.parts.map((part) => part.text).join("")).join("")).toBe(
      "dos tres ",
    );
  });
});
