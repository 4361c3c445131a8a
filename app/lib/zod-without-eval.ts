import { config } from "zod";

/**
 * zod compiles object parsers with `new Function` where it can, and finds out by trying once. Our
 * CSP has no 'unsafe-eval', so the browser refuses that try and reports it as a policy violation
 * even though zod catches it (Lighthouse's Best Practices counts it on every form page). The
 * interpreted parsers are fast enough for forms. Imported by every schema the browser runs.
 */
config({ jitless: true });
