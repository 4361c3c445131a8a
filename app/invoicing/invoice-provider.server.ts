import type { Logger } from "pino";
import type { Config } from "~/config.server";
import { createFacturapiPac } from "./facturapi-pac.server";
import type { InvoiceProvider } from "./provider";
import { createSandboxPac } from "./sandbox-pac.server";

/**
 * The PAC INVOICE_PROVIDER names, for the server and for `npm run ops` (which cancels there);
 * config.server.ts has checked that Facturapi has its key.
 */
export function invoiceProvider(
  config: Config,
  logger: Pick<Logger, "warn" | "error">,
): InvoiceProvider {
  if (config.INVOICE_PROVIDER === "facturapi") {
    return createFacturapiPac({
      apiKey: config.FACTURAPI_KEY!,
      apiUrl: config.FACTURAPI_API_URL,
      timeoutMs: config.FACTURAPI_TIMEOUT_MS,
      logger,
    });
  }
  return createSandboxPac();
}
