import { HELP_ARTICLES, HELP_CATEGORIES } from "./articles.data";
import { browseView } from "./view";

/**
 * The full list of questions. It does not depend on the request, so it is not page data: it is
 * built once where this module loads (the server, and the browser from the help centre's cached
 * route chunk) and only what a request changes — the search results — travels as loader data.
 */
export const HELP_BROWSE = browseView(HELP_CATEGORIES, HELP_ARTICLES);
