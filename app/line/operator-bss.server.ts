import type { Config } from "~/config.server";
import type { Db } from "~/db/db.server";
import type { Bss } from "./bss";
import { createBssSimulator, type BssSimulator } from "./simulator.server";
import { createTmfBss } from "./tmf.server";

/**
 * The operator's BSS as the configuration names it (BSS_PROVIDER): the TM Forum adapter, or the
 * embedded simulator over the store's database, which is also handed out as itself for what only
 * it can do. The server's services and `npm run ops` both build it here, so that the operator's
 * tool talks to the same BSS as the store. config.server.ts has checked that the TMF adapter
 * has its addresses and credentials.
 */
export function operatorBss(
  config: Config,
  db: Db,
): { bss: Bss; bssSimulator: BssSimulator | null } {
  if (config.BSS_PROVIDER === "tmf") {
    return {
      bss: createTmfBss({
        baseUrl: config.BSS_BASE_URL!,
        tokenUrl: config.BSS_TOKEN_URL!,
        clientId: config.BSS_CLIENT_ID!,
        clientSecret: config.BSS_CLIENT_SECRET!,
        timeoutMs: config.BSS_TIMEOUT_MS,
      }),
      bssSimulator: null,
    };
  }
  const simulator = createBssSimulator({ db });
  return { bss: simulator, bssSimulator: simulator };
}
