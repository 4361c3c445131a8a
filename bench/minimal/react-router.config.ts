import type { Config } from "@react-router/dev/config";

/**
 * The smallest React Router app served by the same server.ts: the floor the framework sets,
 * measured by `npm run bench` and `npm run lighthouse` next to the storefront.
 */
export default { ssr: true } satisfies Config;
