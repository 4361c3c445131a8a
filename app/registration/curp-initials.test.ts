import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { curpInitials, curpInitialsReadings, nameMatchesCurp } from "./curp-initials";

describe("curpInitials (RENAPO's first four letters)", () => {
  it.each([
    // RENAPO's hypothetical Ricardo Alamán Pérez (gob.mx) and the instructivo's Gloria.
    ["Ricardo", "Alamán", "Pérez", "AAPR"],
    ["Gloria", "Hernández", "García", "HEGG"],
    ["Luis Raúl", "Bello", "Mena", "BEML"],
    ["Concepción", "Salgado", "Briseño", "SABC"],
  ])("%s %s %s → %s", (givenNames, firstSurname, secondSurname, initials) => {
    expect(curpInitials({ givenNames, firstSurname, secondSurname })).toBe(initials);
  });

  it("skips MARÍA and JOSÉ (and their abbreviations) when another given name follows", () => {
    const initials = (givenNames: string) =>
      curpInitials({ givenNames, firstSurname: "Escamilla", secondSurname: "Arroyo" });
    expect(initials("María Fernanda")).toBe("EAAF");
    expect(initials("MA. FERNANDA")).toBe("EAAF");
    expect(initials("José Antonio")).toBe("EAAA");
    expect(initials("J. Antonio")).toBe("EAAA");
    expect(initials("María")).toBe("EAAM");
    expect(initials("José")).toBe("EAAJ");
    // Only the first name is skipped, and only MARÍA or JOSÉ.
    expect(initials("Luz María")).toBe("EAAL");
    expect(initials("María José")).toBe("EAAJ");
    // The next name's particles are skipped too.
    expect(initials("María de los Ángeles")).toBe("EAAA");
  });

  it("skips the particles of compound surnames", () => {
    expect(
      curpInitials({ givenNames: "Juan", firstSurname: "de la Cruz", secondSurname: "del Río" }),
    ).toBe("CURJ");
    expect(
      curpInitials({ givenNames: "Ana", firstSurname: "Mc Gregor", secondSurname: "Van Dyke" }),
    ).toBe("GEDA");
  });

  it("writes Ñ, a missing inner vowel, a missing second surname and other characters as X", () => {
    expect(
      curpInitials({ givenNames: "Ñeri", firstSurname: "Ñúñez", secondSurname: "Ñandú" }),
    ).toBe("XUXX");
    expect(curpInitials({ givenNames: "Wen", firstSurname: "Ng", secondSurname: null })).toBe(
      "NXXW",
    );
    expect(curpInitials({ givenNames: "Li", firstSurname: "Ich", secondSurname: "  " })).toBe(
      "IXXL",
    );
    expect(curpInitials({ givenNames: "Ana", firstSurname: "'Ayala", secondSurname: "Ruiz" })).toBe(
      "XARA",
    );
    expect(curpInitials({ givenNames: "Ana", firstSurname: "Güemes", secondSurname: "Ruiz" })).toBe(
      "GURA",
    );
  });

  it("writes the second letter of an inconvenient word as X", () => {
    expect(
      curpInitials({ givenNames: "Octavio", firstSurname: "Pérez", secondSurname: "Dávila" }),
    ).toBe("PXDO");
    expect(curpInitials({ givenNames: "Ana", firstSurname: "Baca", secondSurname: "Castro" })).toBe(
      "BACA".replace("A", "X"),
    );
  });
});

const NOT_PLAIN_NAMES = new Set(
  "DA DAS DE DEL DER DI DIE DD EL LA LOS LAS LE LES MAC MC VAN VON Y MARIA MA M JOSE J".split(" "),
);

describe("nameMatchesCurp (the sandbox's name rule)", () => {
  it("reads the name with the given names first or the surnames first, with one surname or two", () => {
    const curp = "AAPR630321HDFLRC09";
    expect(nameMatchesCurp("Ricardo Alamán Pérez", curp)).toBe(true);
    expect(nameMatchesCurp("ALAMAN PEREZ RICARDO", curp)).toBe(true);
    expect(nameMatchesCurp("  ricardo   alamán  pérez ", curp)).toBe(true);
    expect(nameMatchesCurp("Alamán Pérez, Ricardo", curp)).toBe(true);
    expect(curpInitialsReadings("Wen Ng")).toContain("NXXW");
  });

  it("refuses a CURP typed for someone else", () => {
    const curp = "AAPR630321HDFLRC09";
    expect(nameMatchesCurp("Gloria Hernández García", curp)).toBe(false);
    expect(nameMatchesCurp("Gloria Alamán Pérez", curp)).toBe(false);
    expect(nameMatchesCurp("Ricardo Alamán López", curp)).toBe(false);
    expect(nameMatchesCurp("Ricardo", curp)).toBe(false);
    expect(nameMatchesCurp("", curp)).toBe(false);
  });

  const word = fc
    .array(fc.constantFrom(..."ABCDEFGHIJKLMNOPRSTUVZ"), { minLength: 2, maxLength: 9 })
    .map((letters) => letters.join(""))
    // Particles and MARÍA/JOSÉ have rules of their own, tested above.
    .filter((text) => !NOT_PLAIN_NAMES.has(text));
  const person = fc.record({
    givenNames: fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(" ")),
    firstSurname: word,
    secondSurname: fc.option(word, { nil: null }),
  });
  const accented: Record<string, string> = { A: "á", E: "é", I: "í", O: "ó", U: "ú" };

  it("matches a person's CURP however the name is written (property)", () => {
    fc.assert(
      fc.property(person, fc.boolean(), fc.boolean(), (parts, surnamesFirst, withAccents) => {
        const surnames = [parts.firstSurname, parts.secondSurname].filter(Boolean).join(" ");
        let fullName = surnamesFirst
          ? `${surnames} ${parts.givenNames}`
          : `${parts.givenNames} ${surnames}`;
        if (withAccents) {
          fullName = fullName.toLowerCase().replace(/[aeiou]/g, (v) => accented[v.toUpperCase()]);
        }
        const curp = `${curpInitials(parts)}900101HDFRRR05`;
        expect(nameMatchesCurp(fullName, curp)).toBe(true);
      }),
    );
  });

  it("always gives four letters a CURP can begin with (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (fullName) => {
        for (const initials of curpInitialsReadings(fullName)) {
          expect(initials).toMatch(/^[A-Z][AEIOUX][A-Z]{2}$/);
        }
      }),
    );
  });
});
