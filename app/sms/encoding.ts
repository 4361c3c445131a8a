/**
 * How the text of one SMS travels to the SMSC, chosen so that the bytes are right whatever the
 * SMSC takes "its default alphabet" (SMPP data_coding 0) to be: GSM 03.38 unpacked, IA5/ASCII or
 * Latin-1. Decision record 0089.
 *
 * - "gsm7": data_coding 0, one byte per character, only for characters whose code is the same in
 *   those three alphabets: letters without accents, digits, space, line breaks and
 *   `! " # % & ' ( ) * + , - . / : ; < = > ?`. Up to 160 characters (GSM 7-bit on the air).
 * - "ucs2": data_coding 8, UTF-16 big-endian, for anything else — every accent, `¿ ¡`, and
 *   `$ @ _` (their GSM codes differ from ASCII: "$50" sent as data_coding 0 arrives as "¤50" or
 *   garbled). Up to 70 UTF-16 code units (an emoji counts two).
 *
 * Longer texts are refused rather than split: the store's SMS are short codes and notices, and
 * concatenation (UDH or message_payload) is handled unevenly by SMSCs.
 */

export type SmsEncoding = "gsm7" | "ucs2";

/** The longest text that fits one SMS, by encoding. */
export const SINGLE_SMS_LIMIT: Readonly<Record<SmsEncoding, number>> = { gsm7: 160, ucs2: 70 };

/** The SMPP data_coding of each encoding. */
export const DATA_CODING: Readonly<Record<SmsEncoding, number>> = { gsm7: 0x00, ucs2: 0x08 };

const SAME_IN_GSM_ASCII_AND_LATIN1 = /^[A-Za-z0-9 \n\r!"#%&'()*+,\-./:;<=>?]*$/;

export interface MeasuredSms {
  /** The text as it will be sent (Unicode NFC: "o" + combining accent becomes one "ó"). */
  text: string;
  encoding: SmsEncoding;
  /** Characters for "gsm7", UTF-16 code units for "ucs2". */
  length: number;
  limit: number;
  fits: boolean;
}

/** The encoding and size of a text as one SMS. */
export function measureSms(text: string): MeasuredSms {
  const normalized = text.normalize("NFC");
  const encoding: SmsEncoding = SAME_IN_GSM_ASCII_AND_LATIN1.test(normalized) ? "gsm7" : "ucs2";
  const limit = SINGLE_SMS_LIMIT[encoding];
  return {
    text: normalized,
    encoding,
    length: normalized.length,
    limit,
    fits: normalized.length <= limit,
  };
}
