import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import * as z from "zod";
import { missingEmulatorPackages } from "./auth/emulator/installed.server";
import { PROXY_RANGE_NAMES, trustedProxiesProblem } from "./lib/trusted-proxies";
import { isRegimenFiscal, regimenAllowsKind, type RegimenFiscal } from "./invoicing/sat-catalogs";
import { DEFAULT_INVOICE_MONTHS_AFTER_PAYMENT } from "./invoicing/deadline";
import { checkRfc } from "./registration/rfc";
import { loadPointsDirectory } from "./points-of-service/points-file.server";
import { PointsFileError, type PointsDirectory } from "./points-of-service/points-of-service";

const booleanFlag = z
  .enum(["true", "false", "1", "0"])
  .transform((value) => value === "true" || value === "1");

const optionalUrl = z.url().optional();

/** The social providers Cognito's hosted UI can federate, as SOCIAL_PROVIDERS names them. */
export const SOCIAL_PROVIDER_IDS = ["amazon", "apple", "facebook", "google"] as const;
export type SocialProviderId = (typeof SOCIAL_PROVIDER_IDS)[number];

/** A comma list of social providers (any case, repeats ignored). */
const socialProviderList = z
  .string()
  .transform((value) => [
    ...new Set(
      value
        .split(",")
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    ),
  ])
  .pipe(
    z.array(
      z.enum(SOCIAL_PROVIDER_IDS, {
        error: `una lista separada por comas de ${SOCIAL_PROVIDER_IDS.join(", ")}`,
      }),
    ),
  );

/** Every environment variable the server reads. `.env.example` lists the same names. */
export const environmentSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Default: every interface in production, loopback elsewhere (decision 0058). */
  HOST: z.string().min(1).optional(),
  SESSION_SECRET: z.string().optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  PUBLIC_BASE_URL: optionalUrl,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /**
   * How long a write waits for another process's lock on the database (a backup, the sqlite3
   * shell) before the customer is asked to try again. The wait blocks the whole server.
   */
  DB_BUSY_TIMEOUT_MS: z.coerce.number().int().min(0).max(10_000).default(500),
  /**
   * PostgreSQL instead of the embedded SQLite (decision 0074): postgres://user:password@host/db.
   * Never logged: it carries the password.
   */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, "a PostgreSQL URL (postgres://user:password@host:5432/name)")
    .optional(),
  /** PostgreSQL: connections this process keeps at most (each server process has its own pool). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * PostgreSQL: the longest a statement (or the wait for a lock or a free connection) may take
   * before the customer gets a Spanish "try again" (503) with the form kept.
   */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /**
   * Worker processes serving one port (node:cluster, decision 0075); 1 is a single process
   * without a cluster. The embedded identity emulator and the overdue sweep still run once.
   */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** How long a page without personal content is served from memory; 0 turns that off. */
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
  WHATSAPP_NUMBER: z
    .string()
    .regex(/^\d{10,15}$/, "solo dígitos, con lada de país (por ejemplo 525512345678)")
    .default("525512345678"),
  SOCIAL_TIKTOK_URL: z.url().default("https://www.tiktok.com/@conectamovil"),
  SOCIAL_INSTAGRAM_URL: z.url().default("https://www.instagram.com/conectamovil"),
  SOCIAL_FACEBOOK_URL: z.url().default("https://www.facebook.com/conectamovil"),
  CONTACT_EMAIL: z.email().default("hola@conectamovil.mx"),
  /** false, the number of proxies in front of the server, or their addresses (decision 0059). */
  TRUST_PROXY: z.string().default("false"),
  /**
   * Per-address limits count an IPv6 client by its network of this many leading bits (decision
   * 0079): one customer is handed a whole /64 and may use any address in it.
   */
  RATE_LIMIT_IPV6_PREFIX: z.coerce.number().int().min(32).max(128).default(64),
  /** The app's own sandbox (embedded default) or Stripe (decision 0065). */
  PAYMENT_PROVIDER: z.enum(["sandbox", "stripe"]).default("sandbox"),
  /** A secret or restricted key; a test-mode key makes a test environment in production. */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, "una clave secreta de Stripe (sk_live_…, sk_test_…)")
    .optional(),
  /** The signing secret of the webhook endpoint <PUBLIC_BASE_URL>/payments/webhook/stripe. */
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, "el secreto de firma del webhook (whsec_…)")
    .optional(),
  /** Another address for Stripe's API (a local stand-in in tests); absent, api.stripe.com. */
  STRIPE_API_URL: optionalUrl,
  /** How long a call to Stripe may take (it is tried twice) before the customer is asked to try again. */
  STRIPE_TIMEOUT_MS: z.coerce.number().int().min(500).max(12_000).default(8_000),
  /** How long a cash voucher or a SPEI transfer may be paid, in hours (at most a week). */
  PAYMENT_VOUCHER_HOURS: z.coerce.number().int().min(1).max(168).default(72),
  /** Production only: run on the payment sandbox anyway (a test environment). */
  ALLOW_SANDBOX_PAYMENTS: booleanFlag.default(false),
  /** false: the store takes no new accounts (the sign-up tab goes, /auth/sign-up is a 404). */
  SIGN_UP_ENABLED: booleanFlag.default(true),
  /**
   * Passkeys (WebAuthn through Cognito's USER_AUTH) and the first-factor choice (decision 0122):
   * on by default with the embedded emulator; with a real pool only when the pool is set up for
   * them (Essentials tier, relying party, ALLOW_USER_AUTH; README).
   */
  PASSKEYS_ENABLED: booleanFlag.optional(),
  /**
   * "Recordar este dispositivo" after a second factor (decision 0123): on by default with the
   * embedded emulator; with a real pool only when its device tracking is on (README).
   */
  REMEMBERED_DEVICES_ENABLED: booleanFlag.optional(),
  /** Where eSIM activation codes come from: the app's sandbox, or the operator's SM-DP+ (ES2+). */
  ESIM_PROVIDER: z.enum(["sandbox", "es2plus"]).default("sandbox"),
  /** The SM-DP+'s ES2+ base address (https), e.g. https://smdp.example.com. */
  ES2PLUS_BASE_URL: optionalUrl,
  /** Our functionRequesterIdentifier, agreed with the SM-DP+. */
  ES2PLUS_REQUESTER_ID: z.string().min(1).optional(),
  /** The profile type to download, when the SM-DP+ holds more than one. */
  ES2PLUS_PROFILE_TYPE: z.string().min(1).optional(),
  /** How long each ES2+ call may take before the customer is asked to refresh. */
  ES2PLUS_TIMEOUT_MS: z.coerce.number().int().min(500).max(30_000).default(8_000),
  /**
   * The bearer token the SM-DP+'s notifications (ES2+ HandleDownloadProgressInfo, POST
   * /gsma/rsp2/es2plus/handleDownloadProgressInfo) carry in `Authorization`, added by the
   * SM-DP+ or by the TLS terminator that checked its client certificate (decision 0093).
   */
  ES2PLUS_NOTIFICATION_SECRET: z
    .string()
    .min(32, "at least 32 characters")
    .regex(/^[\x21-\x7e]+$/, "printable characters without spaces (a bearer token)")
    .optional(),
  /**
   * The SMTP server customer e-mails leave through: smtp://user:pass@host:587 (STARTTLS) or
   * smtps://user:pass@host:465. Absent: e-mails are captured under DATA_DIR/outbox and shown at
   * /dev/outbox (development).
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "una dirección smtp:// o smtps://")
    .optional(),
  /** The sender customers see; absent, "Conecta Móvil <CONTACT_EMAIL>". */
  MAIL_FROM: z.string().min(3).optional(),
  /** Production only: capture e-mails instead of sending them (a test environment). */
  ALLOW_CAPTURED_MAIL: booleanFlag.default(false),
  /** Production only: issue sandbox eSIM codes anyway (a test environment). */
  ALLOW_SANDBOX_ESIM: booleanFlag.default(false),
  /**
   * The operator's business support system (BSS), which knows the lines, their balances and
   * usage, applies top-ups and activates SIMs: the store's simulator, or the operator's TM Forum
   * Open APIs (TMF637, TMF654, TMF635, TMF622; decision 0088).
   */
  BSS_PROVIDER: z.enum(["simulator", "tmf"]).default("simulator"),
  /** Where the TMF APIs live (https), e.g. https://bss.example.mx. */
  BSS_BASE_URL: optionalUrl,
  /** The BSS's OAuth 2.0 token endpoint (client credentials). */
  BSS_TOKEN_URL: optionalUrl,
  BSS_CLIENT_ID: z.string().min(1).optional(),
  BSS_CLIENT_SECRET: z.string().min(1).optional(),
  /** How long each BSS call may take before a page says it could not reach the line. */
  BSS_TIMEOUT_MS: z.coerce.number().int().min(500).max(30_000).default(5_000),
  /** Production only: run on the BSS simulator anyway (a test environment). */
  ALLOW_SIMULATED_BSS: booleanFlag.default(false),
  /**
   * How often every line in an account is read at the BSS for the running-out e-mail, so that a
   * line nobody opens is told too (decision 0094); 0 turns the sweep off (the e-mail then goes
   * only when the account's pages show the line running out). A fraction is a shorter interval
   * (0.05: every 3 s), so that a test sees a timer round without waiting a minute.
   */
  RUNNING_OUT_SWEEP_MINUTES: z.coerce.number().min(0).max(1440).default(60),
  /**
   * How often the automatic top-ups' lines are read at the BSS and due charges made (decisions
   * 0120, 0121); 0 turns the scheduler off (nothing is charged automatically). One process runs
   * it: a cluster's first worker.
   */
  AUTO_TOPUP_SWEEP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  /** How long after a declined automatic charge it is tried again (the second and last try). */
  AUTO_TOPUP_RETRY_MINUTES: z.coerce.number().int().min(0).max(10_080).default(360),
  /**
   * How SMS (codes sent to a number) leave: captured under DATA_DIR/sms-outbox and shown at
   * /dev/outbox, or through the operator's SMSC over SMPP 3.4 (decision 0089).
   */
  SMS_PROVIDER: z.enum(["outbox", "smpp"]).default("outbox"),
  /** smpp://host:2775 or ssmpp://host:3550 (TLS). */
  SMPP_URL: z
    .string()
    .regex(/^s?smpp:\/\/[^\s/]+(:\d+)?\/?$/, "una dirección smpp:// o ssmpp://")
    .optional(),
  SMPP_SYSTEM_ID: z.string().min(1).max(15).optional(),
  SMPP_PASSWORD: z.string().min(1).max(8).optional(),
  /** The sender customers see: up to 11 letters, a short code, or 52 and ten digits. */
  SMPP_SOURCE_ADDR: z.string().min(1).max(21).optional(),
  /** Production only: capture SMS instead of sending them (a test environment). */
  ALLOW_CAPTURED_SMS: booleanFlag.default(false),
  /**
   * Who checks a line holder's identity (issue 27, decision 0096): the store's sandbox (documented
   * test CURPs, the name matched to the CURP's initials), or the operator's validation service.
   */
  ID_VALIDATION_PROVIDER: z.enum(["sandbox", "http"]).default("sandbox"),
  /** The validation service's base address (https); POST <address>/validations. */
  ID_VALIDATION_URL: optionalUrl,
  /** Sent as `Authorization: Bearer …`; never logged. */
  ID_VALIDATION_API_KEY: z
    .string()
    .min(16, "at least 16 characters")
    .regex(/^[\x21-\x7e]+$/, "printable characters without spaces (a bearer token)")
    .optional(),
  /** How long a validation may take before the customer is told to finish it later. */
  ID_VALIDATION_TIMEOUT_MS: z.coerce.number().int().min(500).max(30_000).default(8_000),
  /** Production only: validate identities on the sandbox anyway (a test environment). */
  ALLOW_SANDBOX_ID_VALIDATION: booleanFlag.default(false),
  /** Production only: run the embedded identity emulator anyway (a test environment). */
  ALLOW_EMBEDDED_IDENTITY: booleanFlag.default(false),
  /** Signs the payment sandbox's notifications; derived from SESSION_SECRET when absent. */
  PAYMENT_NOTIFICATION_SECRET: z.string().min(32, "at least 32 characters").optional(),
  // Identity (Amazon Cognito). Without a pool the server runs the embedded cognito-local emulator.
  COGNITO_REGION: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, "una región de AWS, por ejemplo us-west-2")
    .default("us-west-2"),
  COGNITO_USER_POOL_ID: z
    .string()
    .regex(/^[\w-]+_[0-9a-zA-Z]+$/, "un id de grupo de usuarios, por ejemplo us-west-2_AbC123")
    .optional(),
  COGNITO_CLIENT_ID: z
    .string()
    .regex(/^[\w+]+$/, "un id de cliente de aplicación")
    .optional(),
  COGNITO_ENDPOINT: optionalUrl,
  COGNITO_AUTH_FLOW: z.enum(["USER_SRP_AUTH", "USER_PASSWORD_AUTH"]).optional(),
  COGNITO_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(8_000),
  /**
   * Social sign-in through Cognito's hosted OAuth endpoints (decision 0069): a comma list of
   * amazon, apple, facebook, google. Empty (the default): no social sign-in.
   */
  SOCIAL_PROVIDERS: socialProviderList.default([]),
  /**
   * The social providers whose word that an e-mail is verified the store takes (decision 0081):
   * only then does a social account see the guest orders placed with its e-mail. A comma list
   * of amazon, apple, facebook, google, or `none`; default google.
   */
  TRUSTED_EMAIL_PROVIDERS: z
    .string()
    .transform((value) => (value.trim().toLowerCase() === "none" ? "" : value))
    .pipe(socialProviderList)
    .default(["google"]),
  /**
   * The pool's hosted domain (auth.example.com or https://auth.example.com): required with a
   * real pool when SOCIAL_PROVIDERS is set; the embedded emulator serves its own.
   */
  COGNITO_DOMAIN: z
    .string()
    .regex(
      /^(https?:\/\/)?[a-z0-9.-]+(:\d+)?\/?$/i,
      "un dominio, por ejemplo conecta.auth.us-west-2.amazoncognito.com",
    )
    .optional(),
  COGNITO_PASSWORD_MIN_LENGTH: z.coerce.number().int().min(8).max(99).default(8),
  COGNITO_PASSWORD_REQUIRE_LOWERCASE: booleanFlag.default(true),
  COGNITO_PASSWORD_REQUIRE_UPPERCASE: booleanFlag.default(true),
  COGNITO_PASSWORD_REQUIRE_NUMBERS: booleanFlag.default(true),
  COGNITO_PASSWORD_REQUIRE_SYMBOLS: booleanFlag.default(true),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(300),
  AUTH_RATE_LIMIT_PER_USERNAME: z.coerce.number().int().min(1).default(5),
  /** Codes one address may be sent in the window (password resets, resent codes). */
  AUTH_RATE_LIMIT_MESSAGES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  /** New top-ups allowed per hour from one address and to one number (card testing, mistakes). */
  TOPUP_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  TOPUP_RATE_LIMIT_PER_LINE: z.coerce.number().int().min(1).default(5),
  /**
   * SMS codes that prove a number (adding a line, /saldo, /registro-de-linea), decision 0135: per
   * hour from one address and to one requester (an account, or one browser); the back-off in
   * seconds between codes to one number, whoever asks (doubling up to 15 times it; 0 = none); the
   * wrong codes typed for one number in a day before its codes stop; the codes the whole store
   * sends in an hour (its SMS budget, on /metrics), before "no pudimos enviar el código".
   */
  LINE_CODE_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(20),
  LINE_CODE_RATE_LIMIT_PER_HOLDER: z.coerce.number().int().min(1).default(10),
  LINE_CODE_NUMBER_BACKOFF_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  LINE_CODE_FAILED_CHECKS_PER_NUMBER: z.coerce.number().int().min(5).default(50),
  LINE_CODE_SMS_PER_HOUR: z.coerce.number().int().min(1).default(1000),
  /**
   * Who stamps the store's CFDI invoices (issue 29, decision 0118): the embedded sandbox (the same
   * CFDI, no fiscal seal, "sin validez fiscal"), or Facturapi (a PAC) through its official SDK.
   */
  INVOICE_PROVIDER: z.enum(["sandbox", "facturapi"]).default("sandbox"),
  /** Facturapi's secret key (sk_live_… stamps at SAT; sk_test_… is Facturapi's test mode). */
  FACTURAPI_KEY: z
    .string()
    .regex(/^sk_(test|live)_[\w-]+$/, "una clave secreta de Facturapi (sk_live_…, sk_test_…)")
    .optional(),
  /** Another address for Facturapi's API (a local stand-in in tests); absent, Facturapi's own. */
  FACTURAPI_API_URL: optionalUrl,
  /** How long a call to Facturapi may take before the customer is asked to try again. */
  FACTURAPI_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(30_000).default(15_000),
  /** Production only: issue invoices on the sandbox anyway (a test environment). */
  ALLOW_SANDBOX_INVOICES: booleanFlag.default(false),
  /**
   * The store as its invoices' issuer (Emisor): its RFC, name as in its Constancia de Situación
   * Fiscal, régimen fiscal and the código postal of its Lugar de expedición. Required in
   * production; elsewhere SAT's published test issuer (EKU9003173C9, ESCUELA KEMPER URGATE).
   */
  INVOICE_ISSUER_RFC: z.string().optional(),
  INVOICE_ISSUER_NAME: z.string().trim().min(1).max(254).optional(),
  INVOICE_ISSUER_REGIMEN: z.string().optional(),
  INVOICE_ISSUER_POSTAL_CODE: z
    .string()
    .regex(/^\d{5}$/, "un código postal de 5 dígitos")
    .optional(),
  /**
   * How many months after the month of the payment a customer may still invoice it (until the
   * end of that month, Mexico City time); 0: only the month of the payment.
   */
  INVOICE_MONTHS_AFTER_PAYMENT: z.coerce
    .number()
    .int()
    .min(0)
    .max(12)
    .default(DEFAULT_INVOICE_MONTHS_AFTER_PAYMENT),
  /** The React Router server build to serve; the benchmark points it at a minimal reference app. */
  SERVER_BUILD_PATH: z.string().min(1).optional(),
  /**
   * GET /metrics (Prometheus, decision 0110) on a port of its own, off the public one; with
   * WEB_CONCURRENCY > 1 the primary listens there and adds up every worker.
   */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** The interface METRICS_PORT listens on: loopback unless the operator says otherwise. */
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  /**
   * The bearer token a scrape must send (`Authorization: Bearer …`). Without METRICS_PORT it is
   * what opens /metrics on the public port; with it, also required there.
   */
  METRICS_TOKEN: z
    .string()
    .min(32, "at least 32 characters")
    .regex(/^[\x21-\x7e]+$/, "printable characters without spaces (a bearer token)")
    .optional(),
  /**
   * Unexpected errors (a 500, what reaches the error boundary) are reported to Sentry, or any
   * service that takes its envelopes, at this DSN (decision 0111); absent, nothing is reported.
   */
  SENTRY_DSN: z
    .string()
    .regex(
      /^https?:\/\/[^\s/@:]+(:[^\s/@]*)?@[^\s/@]+\/(\S*\/)?\d+$/,
      "a Sentry DSN (https://<key>@<host>/<project id>)",
    )
    .optional(),
  /** The environment the reports are filed under; default NODE_ENV. */
  SENTRY_ENVIRONMENT: z
    .string()
    .regex(/^[\w.-]{1,64}$/, "letters, digits, . _ - (at most 64)")
    .optional(),
  /**
   * The operator's points of service (a JSON file, decision 0140); absent, the sample the store
   * ships (content/puntos-de-atencion.json), which the page marks as an example.
   */
  POINTS_OF_SERVICE_FILE: z.string().min(1).optional(),
  /** The release the reports are filed under (e.g. a commit or a version); optional. */
  SENTRY_RELEASE: z
    .string()
    .regex(/^[\w.+@-]{1,200}$/, "letters, digits, . _ + @ - (at most 200)")
    .optional(),
});

export type Environment = z.infer<typeof environmentSchema>;

/** The stand-ins for real services this server can run on. */
export type TestDouble =
  "payments" | "identity" | "esim" | "mail" | "bss" | "sms" | "id-validation" | "invoices";

export interface Config extends Omit<
  Environment,
  | "SESSION_SECRET"
  | "DATA_DIR"
  | "HOST"
  | "TRUST_PROXY"
  | "PASSKEYS_ENABLED"
  | "REMEMBERED_DEVICES_ENABLED"
  | "INVOICE_ISSUER_RFC"
  | "INVOICE_ISSUER_NAME"
  | "INVOICE_ISSUER_REGIMEN"
  | "INVOICE_ISSUER_POSTAL_CODE"
> {
  /** Passkeys and the first-factor choice offered (decision 0122). */
  PASSKEYS_ENABLED: boolean;
  /** "Recordar este dispositivo" offered after a second factor (decision 0123). */
  REMEMBERED_DEVICES_ENABLED: boolean;
  /** The store as its invoices' issuer (checked at start). */
  INVOICE_ISSUER_RFC: string;
  INVOICE_ISSUER_NAME: string;
  INVOICE_ISSUER_REGIMEN: RegimenFiscal;
  INVOICE_ISSUER_POSTAL_CODE: string;
  isProduction: boolean;
  /** The interface to listen on. */
  host: string;
  /**
   * The site's public origin, from configuration only: absolute URLs (the payment provider's
   * return and notification addresses) are never built from a request's Host header.
   */
  publicOrigin: string;
  /**
   * The origins forms may be posted from, and (outside production) the only hosts served: the
   * public origin, and outside production the loopback names of the listening port.
   */
  allowedOrigins: string[];
  /** Express's `trust proxy`: false, a number of hops, or the proxies' addresses. */
  trustProxy: false | number | string[];
  /** The test doubles this server runs on instead of real services. */
  testDoubles: TestDouble[];
  /** Production on test doubles by the operator's choice: every page says it is a test site. */
  isTestEnvironment: boolean;
  /** "cognito": a configured user pool; "embedded": the cognito-local emulator started by the app. */
  identityMode: "cognito" | "embedded";
  cognitoAuthFlow: "USER_SRP_AUTH" | "USER_PASSWORD_AUTH";
  /**
   * The hosted domain's origin (https://…) for social sign-in with a real pool; null when social
   * sign-in is off or the embedded emulator serves the hosted endpoints itself.
   */
  cognitoDomain: string | null;
  /** Absolute path; everything the embedded defaults write lives below it. */
  dataDir: string;
  /** The first secret seals new cookies; every listed secret opens old ones (rotation). */
  sessionSecrets: string[];
  /**
   * Where GET /metrics is served (decision 0110): on its own port (`port`), on the public port
   * (`public`), or nowhere (`off`: production with neither METRICS_PORT nor METRICS_TOKEN).
   * `token`: what a scrape must send, or null.
   */
  metrics:
    | { serve: "port"; host: string; port: number; token: string | null }
    | { serve: "public"; token: string | null }
    | { serve: "off" };
  /** The points of service read from POINTS_OF_SERVICE_FILE (or the sample), checked at start. */
  pointsOfService: PointsDirectory;
}

export class ConfigError extends Error {}

/** better-sqlite3 13 is built for Node-API 10, which Node has from 22.14 (decision 0114). */
const REQUIRED_NODE_API = 10;

/**
 * Null on a Node this server runs on; otherwise the one line that says why not. An older Node
 * (Node 20 has Node-API 9) would not refuse better-sqlite3's binary but crash in it.
 */
export function unsupportedRuntime(
  versions: { node: string; napi?: string } = process.versions,
): string | null {
  if (Number(versions.napi ?? 0) >= REQUIRED_NODE_API) return null;
  return `Unsupported Node.js v${versions.node}: run Node 24 (npm start and the other npm scripts use node_modules/.bin/node, the project's own; a server needs Node 24 installed, 22.14 at the least)`;
}

const MINIMUM_SECRET_LENGTH = 32;

/**
 * The environment read with `schema`, on a Node this server runs on; a ConfigError of one line
 * naming the variable at fault otherwise.
 */
function parseEnvironment<Schema extends z.ZodType>(
  schema: Schema,
  env: Record<string, string | undefined>,
): z.output<Schema> {
  const runtime = unsupportedRuntime();
  if (runtime) throw new ConfigError(runtime);
  // An empty assignment (`PUBLIC_BASE_URL=` copied from .env.example) means "not set".
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = issue.path.join(".") || "environment";
    throw new ConfigError(`Invalid configuration: ${variable}: ${issue.message}`);
  }
  return parsed.data;
}

/** What opening and migrating the database reads of the configuration, and nothing else. */
export type DatabaseConfig = Pick<
  Config,
  | "LOG_LEVEL"
  | "DB_BUSY_TIMEOUT_MS"
  | "DATABASE_URL"
  | "DATABASE_POOL_SIZE"
  | "DATABASE_STATEMENT_TIMEOUT_MS"
  | "dataDir"
>;

const databaseEnvironmentSchema = environmentSchema.pick({
  DATA_DIR: true,
  LOG_LEVEL: true,
  DB_BUSY_TIMEOUT_MS: true,
  DATABASE_URL: true,
  DATABASE_POOL_SIZE: true,
  DATABASE_STATEMENT_TIMEOUT_MS: true,
});

/**
 * The database's settings alone (`npm run migrate`, decision 0143): SQLite under DATA_DIR or
 * PostgreSQL at DATABASE_URL, validated as the server validates them. A deploy that migrates
 * first needs neither the identity pool nor the payment, mail or BSS settings for it.
 */
export function loadDatabaseConfig(
  env: Record<string, string | undefined> = process.env,
): DatabaseConfig {
  const { DATA_DIR, ...values } = parseEnvironment(databaseEnvironmentSchema, env);
  return { ...values, dataDir: path.resolve(DATA_DIR) };
}

/**
 * Reads and validates the environment. Throws a ConfigError whose message is one line naming
 * the variable at fault, so an operator sees at once what to fix.
 */
/**
 * `installed`: what this install holds, asked of node_modules unless a test says otherwise (the
 * emulator's packages, absent from a production install).
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  installed: { missingEmulatorPackages: () => string[] } = { missingEmulatorPackages },
): Config {
  const values = parseEnvironment(environmentSchema, env);
  const isProduction = values.NODE_ENV === "production";
  const dataDir = path.resolve(values.DATA_DIR);
  const sessionSecrets = resolveSessionSecrets(values.SESSION_SECRET, isProduction, dataDir);
  const identity = resolveIdentity(values);
  const cognitoDomain = resolveCognitoDomain(values, identity.identityMode, isProduction);
  requireStripeKeys(values);
  requireEs2PlusSettings(values);
  requireSettings(values, "BSS_PROVIDER", "tmf", [
    "BSS_BASE_URL",
    "BSS_TOKEN_URL",
    "BSS_CLIENT_ID",
    "BSS_CLIENT_SECRET",
  ]);
  requireSettings(values, "SMS_PROVIDER", "smpp", [
    "SMPP_URL",
    "SMPP_SYSTEM_ID",
    "SMPP_PASSWORD",
    "SMPP_SOURCE_ADDR",
  ]);
  requireSettings(values, "ID_VALIDATION_PROVIDER", "http", [
    "ID_VALIDATION_URL",
    "ID_VALIDATION_API_KEY",
  ]);
  requireSettings(values, "INVOICE_PROVIDER", "facturapi", ["FACTURAPI_KEY"]);
  const issuer = resolveInvoiceIssuer(
    values,
    isProduction && values.INVOICE_PROVIDER === "facturapi",
  );
  const testDoubles: TestDouble[] = [
    ...(values.PAYMENT_PROVIDER === "sandbox" || isStripeTestMode(values)
      ? (["payments"] as const)
      : []),
    ...(identity.identityMode === "embedded" ? (["identity"] as const) : []),
    ...(values.ESIM_PROVIDER === "sandbox" ? (["esim"] as const) : []),
    ...(values.SMTP_URL ? [] : (["mail"] as const)),
    ...(values.BSS_PROVIDER === "simulator" ? (["bss"] as const) : []),
    ...(values.SMS_PROVIDER === "outbox" ? (["sms"] as const) : []),
    ...(values.ID_VALIDATION_PROVIDER === "sandbox" ? (["id-validation"] as const) : []),
    ...(values.INVOICE_PROVIDER === "sandbox" || /^sk_test_/.test(values.FACTURAPI_KEY ?? "")
      ? (["invoices"] as const)
      : []),
  ];
  if (isProduction) {
    refuseTestDoublesUnlessAllowed(values, testDoubles);
    requireHttps(values);
  }
  if (identity.identityMode === "embedded") requireEmulatorInstalled(installed);
  const metrics = resolveMetrics(values, isProduction);
  const pointsOfService = resolvePointsOfService(values.POINTS_OF_SERVICE_FILE);
  const {
    SESSION_SECRET: _secret,
    DATA_DIR: _dir,
    HOST: host,
    TRUST_PROXY: trustProxy,
    COGNITO_DOMAIN: _domain,
    INVOICE_ISSUER_RFC: _issuerRfc,
    INVOICE_ISSUER_NAME: _issuerName,
    INVOICE_ISSUER_REGIMEN: _issuerRegimen,
    INVOICE_ISSUER_POSTAL_CODE: _issuerPostalCode,
    ...rest
  } = values;
  const listening = host ?? (isProduction ? "0.0.0.0" : "127.0.0.1");
  const publicOrigin = values.PUBLIC_BASE_URL
    ? new URL(values.PUBLIC_BASE_URL).origin
    : `http://${developmentHostName(listening)}:${values.PORT}`;
  return {
    ...rest,
    ...identity,
    PASSKEYS_ENABLED: values.PASSKEYS_ENABLED ?? identity.identityMode === "embedded",
    REMEMBERED_DEVICES_ENABLED:
      values.REMEMBERED_DEVICES_ENABLED ?? identity.identityMode === "embedded",
    ...issuer,
    cognitoDomain,
    isProduction,
    host: listening,
    publicOrigin,
    allowedOrigins: isProduction
      ? [publicOrigin]
      : [
          ...new Set([
            publicOrigin,
            ...["localhost", "127.0.0.1", "[::1]"].map((name) => `http://${name}:${values.PORT}`),
          ]),
        ],
    trustProxy: resolveTrustProxy(trustProxy),
    testDoubles,
    isTestEnvironment: isProduction && testDoubles.length > 0,
    dataDir,
    sessionSecrets,
    metrics,
    pointsOfService,
  };
}

/** The points of service file, checked: a bad one stops the start with its one line. */
function resolvePointsOfService(file: string | undefined): PointsDirectory {
  try {
    return loadPointsDirectory(file);
  } catch (error) {
    if (error instanceof PointsFileError) {
      throw new ConfigError(`Invalid configuration: POINTS_OF_SERVICE_FILE: ${error.message}`);
    }
    throw error;
  }
}

/**
 * Metrics tell a competitor the store's sales and a burglar its weak hours, never a customer's
 * data: in production they are served only where the operator said, on METRICS_PORT (loopback
 * unless METRICS_HOST names another interface, then with METRICS_TOKEN) or on the public port
 * behind METRICS_TOKEN. Outside production, /metrics is open on the public port, which then
 * listens on loopback.
 */
function resolveMetrics(values: Environment, isProduction: boolean): Config["metrics"] {
  const token = values.METRICS_TOKEN ?? null;
  if (values.METRICS_PORT !== undefined) {
    if (values.METRICS_PORT === values.PORT) {
      throw new ConfigError(
        "Invalid configuration: METRICS_PORT: must differ from PORT (metrics are served off the public port)",
      );
    }
    const host = values.METRICS_HOST;
    if (isProduction && !token && !LOOPBACK_HOSTS.has(host)) {
      throw new ConfigError(
        `Invalid configuration: METRICS_TOKEN: required when METRICS_HOST (${host}) is not loopback in production`,
      );
    }
    return { serve: "port", host, port: values.METRICS_PORT, token };
  }
  if (token) return { serve: "public", token };
  return isProduction ? { serve: "off" } : { serve: "public", token: null };
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "::1", "localhost"]);

/**
 * Outside production, the site's name is the listening address when it is a particular one
 * (a developer's LAN address); on loopback or every interface it is `localhost`, the name a
 * browser on this machine uses (cookies are kept per name, so the payment's return must use it).
 */
function developmentHostName(listening: string): string {
  if (["0.0.0.0", "::", "127.0.0.1", "::1", "localhost"].includes(listening)) return "localhost";
  return isIP(listening) === 6 ? `[${listening}]` : listening;
}

/**
 * Production runs on real services: a test double (card 4242 paying a real order, codes sent to
 * nobody) only by the operator's explicit choice. One line names everything that is missing.
 */
function refuseTestDoublesUnlessAllowed(values: Environment, testDoubles: TestDouble[]) {
  const missing: string[] = [];
  if (testDoubles.includes("identity") && !values.ALLOW_EMBEDDED_IDENTITY) {
    missing.push(
      "a real identity pool (COGNITO_USER_POOL_ID and COGNITO_CLIENT_ID; ALLOW_EMBEDDED_IDENTITY=true runs a test environment on the embedded emulator)",
    );
  }
  if (testDoubles.includes("payments") && !values.ALLOW_SANDBOX_PAYMENTS) {
    missing.push(
      values.PAYMENT_PROVIDER === "stripe"
        ? "a live Stripe key (STRIPE_SECRET_KEY is a test-mode key; ALLOW_SANDBOX_PAYMENTS=true runs a test environment on it)"
        : "a real payment provider (PAYMENT_PROVIDER=stripe; ALLOW_SANDBOX_PAYMENTS=true runs a test environment on the payment sandbox)",
    );
  }
  if (testDoubles.includes("esim") && !values.ALLOW_SANDBOX_ESIM) {
    missing.push(
      "a real eSIM provider (ESIM_PROVIDER=es2plus; ALLOW_SANDBOX_ESIM=true runs a test environment on sandbox codes)",
    );
  }
  if (testDoubles.includes("mail") && !values.ALLOW_CAPTURED_MAIL) {
    missing.push(
      "an SMTP server for customer e-mails (SMTP_URL; ALLOW_CAPTURED_MAIL=true runs a test environment that captures them)",
    );
  }
  if (testDoubles.includes("bss") && !values.ALLOW_SIMULATED_BSS) {
    missing.push(
      "the operator's BSS (BSS_PROVIDER=tmf; ALLOW_SIMULATED_BSS=true runs a test environment on simulated lines)",
    );
  }
  if (testDoubles.includes("sms") && !values.ALLOW_CAPTURED_SMS) {
    missing.push(
      "an SMSC for text messages (SMS_PROVIDER=smpp; ALLOW_CAPTURED_SMS=true runs a test environment that captures them)",
    );
  }
  if (testDoubles.includes("id-validation") && !values.ALLOW_SANDBOX_ID_VALIDATION) {
    missing.push(
      "the operator's identity validation service (ID_VALIDATION_PROVIDER=http; ALLOW_SANDBOX_ID_VALIDATION=true runs a test environment on the sandbox validation)",
    );
  }
  if (testDoubles.includes("invoices") && !values.ALLOW_SANDBOX_INVOICES) {
    missing.push(
      values.INVOICE_PROVIDER === "facturapi"
        ? "a live Facturapi key (FACTURAPI_KEY is a test key; ALLOW_SANDBOX_INVOICES=true runs a test environment on it)"
        : "a real invoicing provider (INVOICE_PROVIDER=facturapi; ALLOW_SANDBOX_INVOICES=true runs a test environment on invoices without fiscal validity)",
    );
  }
  if (!values.PUBLIC_BASE_URL) missing.push("PUBLIC_BASE_URL (the site's public https address)");
  if (missing.length > 0) {
    throw new ConfigError(`Refusing to start in production without ${missing.join("; ")}`);
  }
}

/** Stripe needs both its keys; a missing one would only show at the first payment. */
function requireStripeKeys(values: Environment) {
  if (values.PAYMENT_PROVIDER !== "stripe") return;
  for (const variable of ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"] as const) {
    if (!values[variable]) {
      throw new ConfigError(
        `Invalid configuration: ${variable}: required when PAYMENT_PROVIDER=stripe`,
      );
    }
  }
}

/**
 * The SM-DP+ needs its address and our identifier, and its notifications the secret they carry;
 * a missing one would only show at a sale, or when a customer's eSIM never becomes a line.
 */
function requireEs2PlusSettings(values: Environment) {
  if (values.ESIM_PROVIDER !== "es2plus") return;
  for (const variable of [
    "ES2PLUS_BASE_URL",
    "ES2PLUS_REQUESTER_ID",
    "ES2PLUS_NOTIFICATION_SECRET",
  ] as const) {
    if (!values[variable]) {
      throw new ConfigError(
        `Invalid configuration: ${variable}: required when ESIM_PROVIDER=es2plus`,
      );
    }
  }
}

/** A real adapter's settings: a missing one would only show when a customer needs it. */
function requireSettings<
  K extends "BSS_PROVIDER" | "SMS_PROVIDER" | "ID_VALIDATION_PROVIDER" | "INVOICE_PROVIDER",
>(
  values: Environment,
  switchVariable: K,
  real: Environment[K],
  variables: ReadonlyArray<keyof Environment>,
) {
  if (values[switchVariable] !== real) return;
  for (const variable of variables) {
    if (!values[variable]) {
      throw new ConfigError(
        `Invalid configuration: ${String(variable)}: required when ${switchVariable}=${real}`,
      );
    }
  }
}

/** A Stripe key of its test mode: no money moves, whatever the customer is shown. */
function isStripeTestMode(values: Environment): boolean {
  return (
    values.PAYMENT_PROVIDER === "stripe" && /^(sk|rk)_test_/.test(values.STRIPE_SECRET_KEY ?? "")
  );
}

/** SAT's published test issuer: what development invoices are issued by when none is configured. */
export const TEST_INVOICE_ISSUER = {
  INVOICE_ISSUER_RFC: "EKU9003173C9",
  INVOICE_ISSUER_NAME: "ESCUELA KEMPER URGATE",
  INVOICE_ISSUER_REGIMEN: "601",
  INVOICE_ISSUER_POSTAL_CODE: "42501",
} as const;

/**
 * The store's issuer data: all four when invoices are stamped for real (production on a PAC: an
 * invoice names who issues it), SAT's test issuer when none is set for invoices without fiscal
 * validity (the sandbox); the RFC checked like a customer's, and a régimen its kind may hold.
 */
function resolveInvoiceIssuer(values: Environment, stampsForReal: boolean) {
  const names = [
    "INVOICE_ISSUER_RFC",
    "INVOICE_ISSUER_NAME",
    "INVOICE_ISSUER_REGIMEN",
    "INVOICE_ISSUER_POSTAL_CODE",
  ] as const;
  const given = names.filter((name) => values[name] !== undefined);
  if (given.length === 0 && !stampsForReal) return TEST_INVOICE_ISSUER;
  const missing = names.find((name) => values[name] === undefined);
  if (missing) {
    throw new ConfigError(
      `Invalid configuration: ${missing}: required${stampsForReal ? " in production with INVOICE_PROVIDER=facturapi" : " with the other INVOICE_ISSUER_ settings"} (the store's issuer data as in its Constancia de Situación Fiscal)`,
    );
  }
  const rfc = checkRfc(values.INVOICE_ISSUER_RFC!);
  if (!rfc.ok) {
    throw new ConfigError(
      `Invalid configuration: INVOICE_ISSUER_RFC: not a valid RFC (${rfc.fault})`,
    );
  }
  const regimen = values.INVOICE_ISSUER_REGIMEN!;
  if (!isRegimenFiscal(regimen) || !regimenAllowsKind(regimen, rfc.kind)) {
    throw new ConfigError(
      `Invalid configuration: INVOICE_ISSUER_REGIMEN: not a régimen of SAT's catalogue for a persona ${rfc.kind}`,
    );
  }
  return {
    INVOICE_ISSUER_RFC: rfc.rfc,
    INVOICE_ISSUER_NAME: values.INVOICE_ISSUER_NAME!,
    INVOICE_ISSUER_REGIMEN: regimen,
    INVOICE_ISSUER_POSTAL_CODE: values.INVOICE_ISSUER_POSTAL_CODE!,
  };
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * In production the public address and the identity endpoint are https: a customer's session
 * and an identity service's answers never cross a network in clear. A server tried out on this
 * machine (localhost) is the exception.
 */
function requireHttps(values: Environment) {
  for (const variable of [
    "PUBLIC_BASE_URL",
    "COGNITO_ENDPOINT",
    "STRIPE_API_URL",
    "ES2PLUS_BASE_URL",
    "BSS_BASE_URL",
    "BSS_TOKEN_URL",
    "ID_VALIDATION_URL",
    "SENTRY_DSN",
    "FACTURAPI_API_URL",
  ] as const) {
    const value = values[variable];
    if (!value) continue;
    const url = new URL(value);
    if (url.protocol !== "https:" && !LOOPBACK_NAMES.has(url.hostname)) {
      throw new ConfigError(
        `Invalid configuration: ${variable}: must be an https address in production (http only on localhost)`,
      );
    }
  }
}

/**
 * `X-Forwarded-For` is a list the client starts and each proxy appends to: only the entries the
 * configured proxies wrote can be believed, so "true" (believe the client's own first entry) is
 * refused, and so is a list of ranges that together hold every address (decision 0079).
 */
function resolveTrustProxy(raw: string): false | number | string[] {
  const value = raw.trim().toLowerCase();
  if (value === "false" || value === "0") return false;
  if (value === "true") {
    throw new ConfigError(
      "Invalid configuration: TRUST_PROXY: true would trust addresses the client writes; give the number of proxies in front of the server (e.g. 1) or their addresses",
    );
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) {
      throw new ConfigError("Invalid configuration: TRUST_PROXY: at most 10 proxies");
    }
    return hops;
  }
  const entries = raw
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const problem = entries.length === 0 ? null : trustedProxiesProblem(entries);
  if (problem?.kind === "everyone") {
    throw new ConfigError(
      `Invalid configuration: TRUST_PROXY: "${raw.trim()}" trusts every ${problem.family} address, so any client could write the address its limits are counted by; name only your proxies' addresses or subnets (e.g. 10.0.0.0/8), or their number (e.g. 1)`,
    );
  }
  if (problem || entries.length === 0) {
    throw new ConfigError(
      `Invalid configuration: TRUST_PROXY: "${problem?.entry ?? raw}" is neither false, a number of proxies, nor an address or subnet (e.g. 10.0.0.1, 10.0.0.0/8, ${PROXY_RANGE_NAMES.join(", ")})`,
    );
  }
  return entries;
}

function resolveIdentity(values: Environment): Pick<Config, "identityMode" | "cognitoAuthFlow"> {
  const { COGNITO_USER_POOL_ID: pool, COGNITO_CLIENT_ID: client, COGNITO_AUTH_FLOW: flow } = values;
  if (Boolean(pool) !== Boolean(client)) {
    throw new ConfigError(
      "Invalid configuration: COGNITO_USER_POOL_ID and COGNITO_CLIENT_ID: set both (a real pool) or neither (embedded emulator)",
    );
  }
  if (pool) return { identityMode: "cognito", cognitoAuthFlow: flow ?? "USER_SRP_AUTH" };
  if (flow === "USER_SRP_AUTH") {
    throw new ConfigError(
      "Invalid configuration: COGNITO_AUTH_FLOW: the embedded emulator only knows USER_PASSWORD_AUTH",
    );
  }
  return { identityMode: "embedded", cognitoAuthFlow: "USER_PASSWORD_AUTH" };
}

/**
 * Without a pool the server starts the embedded emulator, whose packages are development
 * dependencies: a production install (`npm install --omit=dev`) runs on a real pool only.
 */
function requireEmulatorInstalled(installed: { missingEmulatorPackages: () => string[] }) {
  const missing = installed.missingEmulatorPackages();
  if (missing.length === 0) return;
  throw new ConfigError(
    `Invalid configuration: COGNITO_USER_POOL_ID: required on this install, which has no embedded identity emulator (${missing.join(", ")}: development dependencies, left out by npm install --omit=dev); set COGNITO_USER_POOL_ID and COGNITO_CLIENT_ID of a real pool, or install with npm install`,
  );
}

/**
 * Social sign-in with a real pool needs the pool's hosted domain; the embedded emulator serves
 * hosted endpoints of its own, so a domain there would point the app at tokens it cannot use.
 * Like every other address, https in production (http only on localhost).
 */
function resolveCognitoDomain(
  values: Environment,
  identityMode: Config["identityMode"],
  isProduction: boolean,
): string | null {
  const domain = values.COGNITO_DOMAIN;
  if (values.SOCIAL_PROVIDERS.length === 0) return null;
  if (identityMode === "embedded") {
    if (domain) {
      throw new ConfigError(
        "Invalid configuration: COGNITO_DOMAIN: only with a real pool (COGNITO_USER_POOL_ID); the embedded emulator serves its own hosted endpoints",
      );
    }
    return null;
  }
  if (!domain) {
    throw new ConfigError(
      "Invalid configuration: COGNITO_DOMAIN: required when SOCIAL_PROVIDERS is set with a real pool (the pool's hosted domain, e.g. conecta.auth.us-west-2.amazoncognito.com)",
    );
  }
  const url = new URL(/^https?:\/\//i.test(domain) ? domain : `https://${domain}`);
  if (isProduction && url.protocol !== "https:" && !LOOPBACK_NAMES.has(url.hostname)) {
    throw new ConfigError(
      "Invalid configuration: COGNITO_DOMAIN: must be an https address in production (http only on localhost)",
    );
  }
  return url.origin;
}

function resolveSessionSecrets(
  raw: string | undefined,
  isProduction: boolean,
  dataDir: string,
): string[] {
  if (raw && raw.trim()) {
    const secrets = raw
      .split(",")
      .map((secret) => secret.trim())
      .filter(Boolean);
    const short = secrets.find((secret) => secret.length < MINIMUM_SECRET_LENGTH);
    if (short !== undefined) {
      throw new ConfigError(
        `Invalid configuration: SESSION_SECRET: every secret needs at least ${MINIMUM_SECRET_LENGTH} characters`,
      );
    }
    return secrets;
  }
  if (isProduction) {
    throw new ConfigError(
      "Invalid configuration: SESSION_SECRET: required in production (comma-separated list, newest first)",
    );
  }
  // Kept under DATA_DIR so that development sessions survive a restart.
  const file = path.join(dataDir, "session-secret");
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  }
  return [readFileSync(file, "utf8").trim()];
}
