/**
 * Everything `npm run ops` (scripts/ops.mjs) uses, in one module: the script loads it once a
 * command needs it, with the server's own configuration and database code (bundled with the
 * script into dist/ops.js by `npm run build`).
 */
export { ConfigError, environmentSchema, loadConfig, unsupportedRuntime } from "~/config.server";
export { DATABASE_FILE_NAME, isDatabaseUnavailable, openDatabase } from "~/db/db.server";
export { escapeControlCharacters } from "~/lib/control-characters";
export * from "~/lib/mexico-city-days";
export * from "./assisted-validations.server";
export * from "./auto-topups.server";
export * from "./backup.server";
export * from "./changes.server";
export * from "./csv";
export * from "./format";
export * from "./invoices.server";
export { invoiceProvider } from "~/invoicing/invoice-provider.server";
export * from "./labels";
export * from "./line-jobs.server";
export * from "./line-usage.server";
export * from "./lines.server";
export { retryRefusedLineJob } from "~/line/line-jobs.server";
export { operatorBss } from "~/line/operator-bss.server";
export * from "./queries.server";
export * from "./registrations.server";
export { createRegistrationKeys } from "~/registration/registrations.server";
