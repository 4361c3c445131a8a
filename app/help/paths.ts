/** The help centre's address. */
export const HELP_CENTER_PATH = "/help-center";

/** A question's own address: the server renders it open (`?pregunta=`). */
export function helpQuestionPath(slug: string): string {
  return `${HELP_CENTER_PATH}?pregunta=${encodeURIComponent(slug)}`;
}
