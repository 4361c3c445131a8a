import type { Db } from "~/db/db.server";
import { mexicoCityDateTime } from "~/lib/mexico-city-days";
import {
  listAssistedValidations,
  type AssistedValidation,
} from "~/registration/assisted-validations.server";
import type { TimeWindow } from "~/registration/assisted-validation-form";
import type { Column } from "./format";

/**
 * `npm run ops -- validaciones-asistidas [--desde …] [--hasta …] [--csv …]` (decision 0140): the
 * requests for an assisted validation, newest first, for the staff who call the customers back.
 * The contact is shown whole: it is what the staff call or write to (it is never logged).
 */
export type AssistedValidationRow = AssistedValidation;

export function listAssistedValidationRows(
  db: Db,
  filter: { from?: string; to?: string } = {},
): Promise<AssistedValidationRow[]> {
  return listAssistedValidations(db, filter);
}

const WINDOW_NAMES: Record<TimeWindow, string> = {
  manana: "Mañana (9:00 a 13:00)",
  tarde: "Tarde (13:00 a 17:00)",
  noche: "Noche (17:00 a 20:00)",
};

const CONTACT_KIND_NAMES = { phone: "Teléfono", email: "Correo" } as const;

export const ASSISTED_VALIDATION_COLUMNS: Column<AssistedValidationRow>[] = [
  { header: "Folio", csv: (row) => row.folio, table: (row) => row.folio },
  {
    header: "Solicitada el",
    csv: (row) => mexicoCityDateTime(row.createdAt),
    table: (row) => mexicoCityDateTime(row.createdAt),
  },
  { header: "Número a registrar", csv: (row) => row.number, table: (row) => row.number },
  {
    header: "Contacto",
    csv: (row) => CONTACT_KIND_NAMES[row.contact.kind],
    table: (row) => `${CONTACT_KIND_NAMES[row.contact.kind]}: ${row.contact.value}`,
  },
  { header: "Teléfono o correo", csv: (row) => row.contact.value },
  {
    header: "Horario",
    csv: (row) => WINDOW_NAMES[row.timeWindow],
    table: (row) => WINDOW_NAMES[row.timeWindow],
  },
];
