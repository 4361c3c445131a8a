/**
 * Everything `npm run ops` (scripts/ops.mjs) uses, in one module: the script loads it once
 * through tsx, with the server's own configuration and database code.
 */
export { ConfigError, environmentSchema, loadConfig } from "~/config.server";
export { DATABASE_FILE_NAME, isDatabaseUnavailable, openDatabase } from "~/db/db.server";
export { escapeControlCharacters } from "~/lib/control-characters";
export * from "~/lib/mexico-city-days";
export * from "./changes.server";
export * from "./csv";
export * from "./format";
export * from "./labels";
export * from "./queries.server";
