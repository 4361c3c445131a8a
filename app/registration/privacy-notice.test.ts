import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import registration from "../../public/locales/es/registration.json";
import { formatDay } from "~/lib/dates";
import { parseLegalSource } from "../../scripts/build-legal-pdfs.mjs";
import { KEPT_REGISTRATION_DATA, REGISTRATION_RULES } from "./registration-rules";

/** The privacy notice's source (content/legal), from which `npm run build` makes its PDF. */
function privacyNotice() {
  return parseLegalSource(
    readFileSync(path.resolve("content/legal/aviso-de-privacidad.md"), "utf8"),
  ) as { blocks: Array<{ type: "heading" | "paragraph" | "item"; text: string }> };
}

function section(heading: string) {
  const { blocks } = privacyNotice();
  const start = blocks.findIndex((block) => block.type === "heading" && block.text === heading);
  if (start < 0) throw new Error(`the privacy notice has no section "${heading}"`);
  const end = blocks.findIndex((block, index) => index > start && block.type === "heading");
  return blocks.slice(start + 1, end < 0 ? undefined : end);
}

describe("the privacy notice on the line registration", () => {
  const blocks = section("Registro de tu línea");
  const text = blocks.map((block) => block.text).join("\n");

  it("lists exactly what the registration keeps, as the registration form names it", () => {
    expect(blocks.filter((block) => block.type === "item").map((block) => block.text)).toEqual(
      KEPT_REGISTRATION_DATA.map((name) => registration.kept[name]),
    );
  });

  it("says why: the lineamientos, as the rule dates them, and that no image is kept", () => {
    expect(text).toContain("Lineamientos para la Identificación de Líneas Telefónicas Móviles");
    expect(text).toContain(formatDay(REGISTRATION_RULES.publishedOn));
    expect(text).toMatch(/No guardamos imágenes de tu identificación ni fotografías de tu rostro/);
  });
});
