import {
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  type CountryCode,
} from "libphonenumber-js/min";
import type { PhoneRules } from "./schemas";

/**
 * The countries offered next to the sign-up phone (issue 16): every country libphonenumber-js
 * knows, identified by its ISO code because a calling code is shared (+1: the US, Canada and the
 * Caribbean). Mexico is first and chosen by default (the spec says +1; decision recorded by the
 * lead). The `min` metadata keeps the browser bundle small.
 */
export const DEFAULT_COUNTRY: CountryCode = "MX";

const COUNTRIES: ReadonlySet<string> = new Set(getCountries());

export function isPhoneCountry(value: string): value is CountryCode {
  return COUNTRIES.has(value);
}

/**
 * A calling code as the form sent it before issue 16 ("+52", "+1"): a page served before the
 * change may still post one. The number is then read as an international one.
 */
const CALLING_CODES: ReadonlySet<string> = new Set(
  getCountries().map((country) => `+${getCountryCallingCode(country)}`),
);

function isLegacyCallingCode(value: string): boolean {
  return CALLING_CODES.has(value);
}

/** A country (or, from an older page, a calling code) the phone can be checked against. */
export function isPhoneCountryValue(value: string): boolean {
  return isPhoneCountry(value) || isLegacyCallingCode(value);
}

function parsePhone(countryValue: string, number: string) {
  if (isPhoneCountry(countryValue)) {
    const parsed = parsePhoneNumberFromString(number, countryValue);
    // "+34 …" typed under the US would be a Spanish number: the calling code must be the country's.
    if (parsed && parsed.countryCallingCode !== getCountryCallingCode(countryValue)) {
      return undefined;
    }
    return parsed;
  }
  if (isLegacyCallingCode(countryValue)) {
    return parsePhoneNumberFromString(`${countryValue}${number.replace(/^\s*\+/, "")}`);
  }
  return undefined;
}

/** Whether the number is a valid one for the chosen country (libphonenumber-js's metadata). */
export function isValidPhoneNumber(countryValue: string, number: string): boolean {
  return parsePhone(countryValue, number)?.isValid() ?? false;
}

/** The phone as Cognito stores it: E.164, e.g. +525512345678. */
export function normalizePhoneNumber(countryValue: string, number: string): string {
  const parsed = parsePhone(countryValue, number);
  if (parsed) return parsed.number;
  return `${countryValue}${number}`.replace(/[^0-9+]/g, "");
}

/** What `signUpSchema` checks the phone with, on the server and in the browser. */
export const PHONE_RULES: PhoneRules = {
  defaultCountry: DEFAULT_COUNTRY,
  isCountry: isPhoneCountryValue,
  isValid: isValidPhoneNumber,
};

export interface CountryOption {
  /** ISO 3166-1 alpha-2, the select's value. */
  value: string;
  /** The country's Spanish name. */
  name: string;
  /** Without the +, e.g. "52". */
  callingCode: string;
}

/**
 * Every country with its Spanish name, Mexico first and the rest by Spanish collation. Computed on
 * the server and sent with the page, so the server's HTML and the browser's hydration agree
 * whatever ICU each has.
 */
export function countryOptions(locale = "es-MX"): CountryOption[] {
  const names = new Intl.DisplayNames([locale], { type: "region" });
  const options = getCountries().map((country) => ({
    value: country,
    name: names.of(country) ?? country,
    callingCode: getCountryCallingCode(country),
  }));
  const first = options.filter((option) => option.value === DEFAULT_COUNTRY);
  const rest = options
    .filter((option) => option.value !== DEFAULT_COUNTRY)
    .sort((a, b) => a.name.localeCompare(b.name, "es") || a.value.localeCompare(b.value));
  return [...first, ...rest];
}
