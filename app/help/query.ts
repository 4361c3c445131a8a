import { fold } from "./fold";
import { MAX_QUERY_LENGTH } from "./view";

const MAX_TERMS = 8;

/** Words too common in Spanish questions to tell one answer from another (already folded). */
const STOPWORDS = new Set(
  (
    "a al ante con de del desde el en es esta este esto hay la las le les lo los me mi mis muy " +
    "no o para pero por que se si sin su sus te tu tus un una uno unos unas y ya yo como cual " +
    "cuando donde puedo quiero hago hacer tengo son ser estoy mas"
  ).split(" "),
);

/**
 * Reduces a word to a stem that is a prefix of its other forms, so that a plural or an infinitive
 * still finds the answer: "recargas" → "recarga", "activaciones" → "activacion",
 * "configurar" → "configur" (finds "configura", "configuración").
 */
export function stem(term: string): string {
  if (term.length >= 5 && /(ar|er|ir)$/.test(term)) return term.slice(0, -2);
  if (term.length >= 5 && term.endsWith("es")) return term.slice(0, -2);
  if (term.length >= 4 && term.endsWith("s") && /\p{L}/u.test(term.at(-2) ?? "")) {
    return term.slice(0, -1);
  }
  return term;
}

/**
 * The folded, stemmed words of a query. Common words are dropped unless the query has nothing
 * else; codes such as `*100#` and addresses such as `internet.conectamovil.mx` stay whole.
 */
export function queryTerms(rawQuery: string): string[] {
  const words = fold(rawQuery.slice(0, MAX_QUERY_LENGTH))
    .split(/[^\p{L}\p{N}*#.@_-]+/u)
    .map((word) => word.replace(/^[.@_-]+|[.@_-]+$/g, ""))
    .filter((word) => /[\p{L}\p{N}]/u.test(word) && (word.length > 1 || /\d/.test(word)));
  const meaningful = words.filter((word) => !STOPWORDS.has(word));
  const chosen = meaningful.length > 0 ? meaningful : words;
  return [...new Set(chosen.map(stem))].slice(0, MAX_TERMS);
}
