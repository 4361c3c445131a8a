/**
 * The first four letters of a CURP, from a name, by RENAPO's Instructivo Normativo para la
 * Asignación de la CURP: the first letter and the first inner vowel of the first surname, the
 * first letter of the second surname, the first letter of the given name. The sandbox validation
 * compares them with the CURP typed (decision 0096): a CURP typed for someone else almost
 * never has the same four.
 *
 * The instructivo's exceptions, as applied here:
 * - accents and the diaeresis do not count (Á → A, Ü → U); a Ñ is written X;
 * - any other character than A–Z where a letter is taken (a hyphen, an apostrophe) is written X;
 * - a surname without an inner vowel gives X, a person without a second surname X;
 * - the particles of compound names (DE, DEL, LA, LOS, LAS, Y, MC, VON…) are skipped: "de la
 *   Cruz" gives C and U;
 * - a compound given name that begins with MARÍA or JOSÉ (MA., M., J.) takes the next name:
 *   "María Fernanda" gives F, "José" alone J;
 * - four letters that make a word of the instructivo's list of inconvenient words have their
 *   second letter written X (PEDO → PXDO).
 */

export interface NameParts {
  /** One or more given names, as written. */
  givenNames: string;
  firstSurname: string;
  secondSurname: string | null;
}

const PARTICLES = new Set([
  "DA",
  "DAS",
  "DE",
  "DEL",
  "DER",
  "DI",
  "DIE",
  "DD",
  "EL",
  "LA",
  "LOS",
  "LAS",
  "LE",
  "LES",
  "MAC",
  "MC",
  "VAN",
  "VON",
  "Y",
]);

/** MARÍA and JOSÉ, and their abbreviations, once dots and accents are gone. */
const COMMON_FIRST_NAMES = new Set(["MARIA", "MA", "M", "JOSE", "J"]);

/** The instructivo's Anexo 2: initials RENAPO does not issue as they are. */
const INCONVENIENT_WORDS = new Set(
  (
    "BACA BAKA BUEI BUEY CACA CACO CAGA CAGO CAKA CAKO COGE COGI COJA COJE COJI COJO COLA " +
    "CULO FALO FETO GETA GUEI GUEY JETA JOTO KACA KACO KAGA KAGO KAKA KAKO KOGE KOGI KOJA " +
    "KOJE KOJI KOJO KOLA KULO LILO LOCA LOCO LOKA LOKO MAME MAMO MEAR MEAS MEON MIAR MION " +
    "MOCO MOKO MULA MULO NACA NACO PEDA PEDO PENE PIPI PITO POPO PUTA PUTO QULO RATA ROBA " +
    "ROBE ROBO RUIN SENO TETA VACA VAGA VAGO VAKA VUEI VUEY WUEI WUEY"
  ).split(" "),
);

const VOWELS = new Set(["A", "E", "I", "O", "U"]);

/** "Muñoz-López" → "MUXOZ-LOPEZ": upper case, Ñ as X, no accents. */
function normalizedWord(word: string): string {
  return word.toUpperCase().replace(/Ñ/g, "X").normalize("NFD").replace(/\p{M}/gu, "");
}

const withoutDots = (word: string) => word.replace(/\./g, "");

const isParticle = (word: string) => PARTICLES.has(withoutDots(word));

function wordsOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map(normalizedWord)
    .filter((word) => withoutDots(word) !== "");
}

/** The word a compound name is known by: its first that is not a particle. */
function mainWord(words: readonly string[]): string {
  return withoutDots(words.find((word) => !isParticle(word)) ?? words[0] ?? "");
}

const letter = (character: string | undefined) =>
  character !== undefined && /^[A-Z]$/.test(character) ? character : "X";

function firstInnerVowel(word: string): string {
  for (const character of word.slice(1)) {
    if (VOWELS.has(character)) return character;
  }
  return "X";
}

/**
 * Names made of words, each particle joined to the word after it ("de la Cruz" is one name,
 * "María de los Ángeles" two): what a reading of a full name splits.
 */
function namesOf(text: string): string[][] {
  const names: string[][] = [];
  let pending: string[] = [];
  for (const word of wordsOf(text)) {
    pending.push(word);
    if (!isParticle(word)) {
      names.push(pending);
      pending = [];
    }
  }
  if (pending.length > 0) {
    if (names.length > 0) names[names.length - 1].push(...pending);
    else names.push(pending);
  }
  return names;
}

function initialsOf(
  givenNames: readonly string[][],
  firstSurname: readonly string[],
  secondSurname: readonly string[] | null,
): string {
  const surname = mainWord(firstSurname);
  const skipsFirst =
    givenNames.length > 1 && COMMON_FIRST_NAMES.has(withoutDots(givenNames[0].join("")));
  const given = mainWord(givenNames[skipsFirst ? 1 : 0] ?? []);
  const initials =
    letter(surname[0]) +
    firstInnerVowel(surname) +
    (secondSurname ? letter(mainWord(secondSurname)[0]) : "X") +
    letter(given[0]);
  return INCONVENIENT_WORDS.has(initials) ? `${initials[0]}X${initials.slice(2)}` : initials;
}

/** The four letters RENAPO gives a person of these names. */
export function curpInitials(parts: NameParts): string {
  const second = parts.secondSurname?.trim() ? wordsOf(parts.secondSurname) : null;
  return initialsOf(namesOf(parts.givenNames), wordsOf(parts.firstSurname), second);
}

/**
 * The initials of every way a full name typed in one field can be read: given names first
 * ("Ricardo Alamán Pérez", as people write it) or surnames first ("ALAMÁN PÉREZ RICARDO", as
 * the credencial para votar prints it), with two surnames or one.
 */
export function curpInitialsReadings(fullName: string): string[] {
  const names = namesOf(fullName);
  const count = names.length;
  if (count < 2) return [];
  const readings = [
    initialsOf(names.slice(0, count - 1), names[count - 1], null),
    initialsOf(names.slice(1), names[0], null),
  ];
  if (count >= 3) {
    readings.push(
      initialsOf(names.slice(0, count - 2), names[count - 2], names[count - 1]),
      initialsOf(names.slice(2), names[0], names[1]),
    );
  }
  return [...new Set(readings)];
}

/** Whether a CURP's first four letters are those of one reading of the name. */
export function nameMatchesCurp(fullName: string, curp: string): boolean {
  return curpInitialsReadings(fullName).includes(curp.slice(0, 4).toUpperCase());
}
