/**
 * The types of what every loader and action receives: the long-lived services and what each
 * request adds. Type-only (every import is `import type`, nothing runs), so any module may name
 * these types without an import circle; services.server.ts builds the services and
 * lib/request-context.server.ts the request's context (decision 0085).
 */
import type { Logger } from "pino";
import type { IdentityService } from "./auth/identity.server";
import type { AutoTopupScheduler } from "./auto-topup/scheduler.server";
import type { Session } from "./auth/session.server";
import type { Catalogue } from "./catalog/catalog.server";
import type { Config } from "./config.server";
import type { Db } from "./db/db.server";
import type { EsimProvisioner } from "./esim/provisioning";
import type { Bss } from "./line/bss";
import type { LineJobs } from "./line/line-jobs.server";
import type { BssSimulator } from "./line/simulator.server";
import type { SmsSender } from "./sms/sender";
import type { CookieJar } from "./lib/cookie-jar.server";
import type { RenderMemo } from "./lib/page-caching";
import type { RateLimiter } from "./lib/rate-limit";
import type { Mailer } from "./mail/mailer.server";
import type { ErrorReporter } from "./observability/error-reporter";
import type { PaymentService } from "./payments/payments.server";
import type { SandboxGateway } from "./payments/sandbox/sandbox.server";
import type { PortabilityRequests } from "./portability/requests.server";
import type { InvoiceProvider } from "./invoicing/provider";
import type { IdValidator } from "./registration/id-validation";
import type { RegistrationKeys } from "./registration/registrations.server";
import type { SealedCookies } from "./sealed-cookies.server";

/** Long-lived objects built once at start by server.ts and handed to every loader and action. */
export interface Services {
  config: Config;
  logger: Logger;
  db: Db;
  catalogue: Catalogue;
  payments: PaymentService;
  /** The app-served test payment provider; null when a real provider is configured. */
  sandbox: SandboxGateway | null;
  portability: PortabilityRequests;
  /** Issues eSIM activation codes: the sandbox, or the operator's SM-DP+. */
  esim: EsimProvisioner;
  /** The operator's BSS (lines, balances, usage, top-ups, activations): simulator or TMF (0088). */
  bss: Bss;
  /** The same simulator, for what only it can do (record usage, suspend a test line); null on TMF. */
  bssSimulator: BssSimulator | null;
  /** Sends text messages: captured in the development outbox, or over SMPP (0089). */
  sms: SmsSender;
  /** Where SMS are captured without an SMSC (shown at /dev/outbox); null with SMPP. */
  smsOutboxDir: string | null;
  /** Checks a line holder's identity: the sandbox, or the operator's service over HTTP (0096). */
  idValidator: IdValidator;
  /** Stamps the CFDI invoices: the sandbox, or Facturapi (decision 0118). */
  invoicing: InvoiceProvider;
  /** Seal and count the holders' CURP, RFC or passport of line registrations (0097). */
  registrationKeys: RegistrationKeys;
  /** Sends the queued customer e-mails (app/mail), with retries. */
  mailer: Mailer;
  /** Where e-mails are captured without SMTP_URL (shown at /dev/outbox); null with SMTP. */
  mailOutboxDir: string | null;
  /** Applies paid top-ups and activates lines at the BSS, queued with what decided them. */
  lineJobs: LineJobs;
  /** The automatic top-ups' scheduler, when this process runs it (decision 0121); else null. */
  autoTopups: { scheduler: AutoTopupScheduler | null };
  /** Every sealed cookie, each specified by its capability (sealed-cookies.server.ts). */
  cookies: SealedCookies;
  /** Amazon Cognito, or the embedded emulator; rate limits of the auth forms. */
  identity: IdentityService;
  /** Attempt counters of every limited form (sign-in, codes, status lookups). */
  rateLimiter: RateLimiter;
  /** Unexpected errors told to the error tracker (SENTRY_DSN), or to nobody (decision 0111). */
  errors: ErrorReporter;
  /** Checks run by GET /readyz; each resolves when its dependency answers. */
  readinessChecks: Record<string, () => Promise<void>>;
  /** Run in order on shutdown. */
  closers: Array<() => Promise<void> | void>;
}

/** What each request adds to the services (built once per request by server/router-handler.ts). */
export interface RequestContext extends Services {
  /** This request's cookies: each opened once; every Set-Cookie collected for the response. */
  jar: CookieJar;
  /**
   * The signed-in customer: read once per request, checked against sign-outs and refreshed
   * before any loader runs; replaced when an action signs in or out.
   */
  session: Session | null;
  cspNonce: string;
  requestId: string;
  /**
   * The browser fetched this ahead of a click it expects (a link's prefetch). Its data is
   * no-store, so what it answers is never shown; only its cookies would stay.
   */
  isPrefetch: boolean;
  /**
   * Who per-address limits count: the client's address, or for IPv6 its network (a /64 by
   * default), one spelling for each (server/client-address.ts). From X-Forwarded-For only as
   * far as TRUST_PROXY allows.
   */
  clientAddressKey: string;
  /** Whether the rendered page may be kept whole by the page caches (server/html-caches.ts). */
  setPageCacheable: (cacheable: boolean) => void;
  /**
   * Documents kept by the data they were rendered from, for PAGE_CACHE_SECONDS: a page whose
   * routes opt in and whose loaders return what they returned before is not rendered again
   * (decisions 0077, 0084); null when off.
   */
  renderMemo: RenderMemo | null;
  /**
   * A value unique to this page view, such as a form's idempotency key (random unless given). A
   * page kept by the data it was rendered from (decision 0077) gets a fresh one in every answer,
   * as with the CSP nonce.
   */
  newViewToken: (token?: string) => string;
  /** The view tokens issued so far for this request. */
  viewTokens: readonly string[];
  /**
   * Tells the error tracker of an unexpected error of this request (a 500, what reaches the error
   * boundary), with the request's id, route and method (decision 0111).
   */
  reportError: (error: unknown) => void;
}
