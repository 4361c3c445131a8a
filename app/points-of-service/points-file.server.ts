import { readFileSync } from "node:fs";
import path from "node:path";
import sample from "../../content/puntos-de-atencion.json";
import { parsePointsFile, PointsFileError, type PointsDirectory } from "./points-of-service";

/** The sample the store ships (content/puntos-de-atencion.json), bundled into the build. */
export const SAMPLE_POINTS_SOURCE = "content/puntos-de-atencion.json";

/**
 * The operator's points of service from `file` (POINTS_OF_SERVICE_FILE), or the sample when none
 * is configured. A file that cannot be read, is not JSON or is not a list of points throws a
 * `PointsFileError` naming the file and what is wrong: the server does not start on it.
 */
export function loadPointsDirectory(file: string | undefined): PointsDirectory {
  if (!file) return parsePointsFile(sample, SAMPLE_POINTS_SOURCE);
  const resolved = path.resolve(file);
  let text: string;
  try {
    text = readFileSync(resolved, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code ?? "error";
    throw new PointsFileError(`Puntos de atención: no se pudo leer ${resolved} (${code})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new PointsFileError(
      `Puntos de atención en ${resolved}: no es JSON válido (${(error as Error).message})`,
    );
  }
  return parsePointsFile(json, resolved);
}
