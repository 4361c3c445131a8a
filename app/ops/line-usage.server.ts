import { isBssRefused } from "~/line/bss";
import {
  isInvalidUsage,
  isLineNumber,
  USAGE_DAY_LIMITS,
  type InvalidUsage,
  type Line,
  type UsageAmounts,
} from "~/line/line";
import type { BssSimulator } from "~/line/simulator.server";
import { todayInMexico } from "~/lib/mexico-city-days";
import { MB_PER_GB } from "~/topup/amounts";

/**
 * `npm run ops -- consumo <número> --datos 500MB [--minutos N] [--sms N]`: usage recorded on a
 * simulated line, so that demos and tests can drive a line down. Only the BSS simulator takes it
 * (a real BSS hears usage from the network); the amounts are checked by the line's own rules
 * (~/line/line.ts validateUsage) and a refused amount changes nothing.
 */

/** What the operator typed, as text. */
export interface UsageArguments {
  number: string;
  datos?: string;
  minutos?: string;
  sms?: string;
}

export type UsageOutcome =
  | {
      ok: true;
      number: string;
      day: string;
      asked: Pick<UsageAmounts, "dataMb" | "minutes" | "sms">;
      consumed: UsageAmounts;
      /** The line afterwards, as the BSS tells it. */
      line: Line | null;
    }
  | { ok: false; message: string };

const DATA_AMOUNT = /^(-?\d+(?:[.,]\d+)?)\s*(mb|gb)?$/i;

/**
 * Megabytes from "500MB", "500 mb", "1.5GB", "1,5 GB" or "500" (MB): a GB is 1024 MB, rounded to
 * the megabyte. NaN for text that is no amount; a negative or fractional MB amount is returned
 * as such, for the line's rules to refuse by name.
 */
export function parseDataAmount(text: string): number {
  const match = DATA_AMOUNT.exec(text.trim());
  if (!match) return Number.NaN;
  const value = Number(match[1].replace(",", "."));
  return match[2]?.toLowerCase() === "gb" ? Math.round(value * MB_PER_GB) : value;
}

/** Whole minutes or messages; NaN for text that is no number. */
export function parseCount(text: string): number {
  return /^\s*-?\d+(?:[.,]\d+)?\s*$/.test(text)
    ? Number(text.trim().replace(",", "."))
    : Number.NaN;
}

const OPTION_OF: Record<keyof UsageAmounts, string> = {
  dataMb: "--datos",
  minutes: "--minutos",
  sms: "--sms",
  socialDataMb: "--datos",
};

const UNIT_OF: Record<keyof UsageAmounts, string> = {
  dataMb: "MB",
  minutes: "minutos",
  sms: "mensajes",
  socialDataMb: "MB",
};

/** One Spanish line for the operator: which amount, and why it cannot have happened. */
export function usageRefusal(error: InvalidUsage): string {
  const field = error.field;
  if (field === null || field === "day") {
    return "Indica qué consumió la línea (mayor que 0): --datos 500MB, --minutos N o --sms N.";
  }
  const option = OPTION_OF[field];
  switch (error.reason) {
    case "not-a-number":
      return field === "dataMb" || field === "socialDataMb"
        ? `${option}: no se entiende la cantidad; escríbela en MB o GB, p. ej. 500MB o 1.5GB.`
        : `${option}: no es un número; escribe un número entero, p. ej. ${option} 10.`;
    case "negative":
      return `${option} no puede ser negativo: el consumo solo se suma.`;
    case "not-whole":
      return `${option} debe ser un número entero de ${UNIT_OF[field]}.`;
    case "too-large":
      return `${option}: es demasiado para un día (máximo ${USAGE_DAY_LIMITS[field].toLocaleString("es-MX")} ${UNIT_OF[field]} al día, contando lo ya registrado hoy).`;
    default:
      return `${option} no es válido.`;
  }
}

/**
 * Records the usage on the simulated line and answers what was consumed and the line
 * afterwards, or a refusal in Spanish: not the simulator, not a ten-digit number, an amount that
 * cannot have happened, a line the simulator does not know or that is not active.
 */
export async function recordLineUsage(
  bssSimulator: BssSimulator | null,
  args: UsageArguments,
  now: Date = new Date(),
): Promise<UsageOutcome> {
  if (!bssSimulator) {
    return {
      ok: false,
      message:
        "consumo solo funciona con el BSS simulado (BSS_PROVIDER=simulator): el BSS del operador recibe el consumo de la red.",
    };
  }
  const number = args.number.replace(/[\s-]/g, "");
  if (!isLineNumber(number)) {
    return { ok: false, message: `"${args.number}" no es un número de línea: son 10 dígitos.` };
  }
  const asked = {
    dataMb: args.datos === undefined ? 0 : parseDataAmount(args.datos),
    minutes: args.minutos === undefined ? 0 : parseCount(args.minutos),
    sms: args.sms === undefined ? 0 : parseCount(args.sms),
  };
  let consumed: UsageAmounts;
  try {
    consumed = await bssSimulator.recordUsage(number, asked);
  } catch (error) {
    if (isInvalidUsage(error)) return { ok: false, message: usageRefusal(error) };
    if (isBssRefused(error) && error.reason === "unknown-number") {
      return { ok: false, message: `La línea ${number} no existe en el BSS simulado.` };
    }
    if (isBssRefused(error) && error.reason === "line-not-active") {
      return {
        ok: false,
        message: `La línea ${number} no está activa (suspendida, sin registro, portando o dada de baja): no registra consumo.`,
      };
    }
    throw error;
  }
  return {
    ok: true,
    number,
    day: todayInMexico(now),
    asked,
    consumed,
    line: await bssSimulator.findLine(number),
  };
}
