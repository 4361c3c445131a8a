import { HELP_ARTICLES, HELP_CATEGORIES } from "./articles.data";
import { helpCenterView, type HelpCenterView } from "./page";
import { buildHelpIndex } from "./search";

/**
 * Built once, when the server loads this module: every search then runs over content already
 * parsed and folded (building it costs about 6 ms) and folds only the query.
 */
const helpIndex = buildHelpIndex(HELP_CATEGORIES, HELP_ARTICLES);

/** The help centre for `?q=` (a search) and `?pregunta=` (the question to show open). */
export function loadHelpCenter(url: URL): HelpCenterView {
  return helpCenterView(helpIndex, {
    query: url.searchParams.get("q"),
    question: url.searchParams.get("pregunta"),
  });
}
