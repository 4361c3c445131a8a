import path from "node:path";
import type { Logger } from "pino";
import { cartCookieSchema, CART_COOKIE_MAX_AGE_SECONDS } from "./cart/cart-session.server";
import type { StoredCartItem } from "./cart/cart";
import { createCatalogue, type Catalogue } from "./catalog/catalog.server";
import { PLAN_CATALOGUE } from "./catalog/plans.data";
import {
  ORDER_ACCESS_MAX_AGE_SECONDS,
  orderAccessSchema,
  type OrderAccess,
} from "./checkout/order-access.server";
import { ORDER_PAYMENT_PURPOSE, orderPaymentPurpose } from "./checkout/order-payments.server";
import {
  createIdentity,
  type EmbeddedIdentity,
  type IdentityService,
} from "./auth/identity.server";
import {
  ACCOUNT_TOTP_SETUP_MAX_AGE_SECONDS,
  accountTotpSetupSchema,
  type AccountTotpSetup,
  PENDING_COOKIE_MAX_AGE_SECONDS,
  SESSION_MAX_AGE_SECONDS,
  pendingSignInSchema,
  sessionTokensSchema,
  type PendingSignIn,
  type Session,
} from "./auth/session.server";
import type { SessionTokens } from "./auth/tokens";
import {
  OAUTH_COOKIE_MAX_AGE_SECONDS,
  oauthTransactionSchema,
  type OAuthTransaction,
} from "./auth/oauth.server";
import type { Config } from "./config.server";
import { checkDatabase, databaseDriver, openDatabase, type Db } from "./db/db.server";
import { createPaymentService, type PaymentService } from "./payments/payments.server";
import {
  SANDBOX_PAYER_MAX_AGE_SECONDS,
  sandboxPayerSchema,
  type SandboxPayer,
} from "./payments/sandbox/page-access.server";
import { createSandboxGateway, type SandboxGateway } from "./payments/sandbox/sandbox.server";
import { deriveNotificationKey } from "./payments/sandbox/signature.server";
import { createStripeProvider, type StripeProviderOptions } from "./payments/stripe/stripe.server";
import { TOPUP_PAYMENT_PURPOSE, topupPaymentPurpose } from "./topup/topups.server";
import { createSealedCookie, type SealedCookie } from "./lib/sealed-cookie.server";
import {
  PORTABILITY_ACCESS_MAX_AGE_SECONDS,
  portabilityAccessSchema,
  type PortabilityAccess,
} from "./portability/request-access.server";
import {
  createNipBox,
  createPortabilityRequests,
  type PortabilityRequests,
} from "./portability/requests.server";
import type { CookieJar } from "./lib/cookie-jar.server";
import { flashSchema } from "./lib/flash.server";
import {
  FORM_KEY_SECRET_MAX_AGE_SECONDS,
  formKeySecretSchema,
  type FormKeySecret,
} from "./lib/form-key.server";
import type { Flash } from "./lib/flash";
import { RateLimiter } from "./lib/rate-limit";
import { createEs2PlusProvisioner } from "./esim/es2plus-provisioner.server";
import type { EsimProvisioner } from "./esim/provisioning";
import { createSandboxProvisioner } from "./esim/sandbox-provisioner.server";
import { whatsAppLink } from "./lib/external-links";
import { createMailer, type Mailer } from "./mail/mailer.server";
import { PageCache } from "./server/page-cache";
import {
  createOutboxTransport,
  createSmtpTransport,
  type MailTransport,
} from "./mail/transport.server";

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
  /** Sends the queued customer e-mails (app/mail), with retries. */
  mailer: Mailer;
  /** Where e-mails are captured without SMTP_URL (shown at /dev/outbox); null with SMTP. */
  mailOutboxDir: string | null;
  /**
   * Documents kept by the data they were rendered from, for PAGE_CACHE_SECONDS: a page whose
   * loaders return what they returned before is not rendered again (decision 0077); null when off.
   */
  renderedPages: PageCache | null;
  cookies: {
    flash: SealedCookie<Flash>;
    cart: SealedCookie<StoredCartItem[]>;
    orderAccess: SealedCookie<OrderAccess>;
    portability: SealedCookie<PortabilityAccess>;
    /** This browser's secret that its forms' idempotency keys are signed with (0082). */
    formKeys: SealedCookie<FormKeySecret>;
    /** The signed-in customer's Cognito tokens (chunked: real tokens exceed one cookie). */
    authSession: SealedCookie<SessionTokens>;
    /** A sign-in waiting for its next step (180 s). */
    authPending: SealedCookie<PendingSignIn>;
    /** An authenticator app being added from the account (10 minutes). */
    accountTotpSetup: SealedCookie<AccountTotpSetup>;
    /** A social sign-in at the provider: state, PKCE verifier, where to go (10 minutes). */
    authOauth: SealedCookie<OAuthTransaction>;
    /** The sandbox checkouts the store sent this browser to pay (decision 0081). */
    sandboxPayer: SealedCookie<SandboxPayer>;
  };
  /** Amazon Cognito, or the embedded emulator; rate limits of the auth forms. */
  identity: IdentityService;
  /** Attempt counters of every limited form (sign-in, codes, status lookups). */
  rateLimiter: RateLimiter;
  /** Checks run by GET /readyz; each resolves when its dependency answers. */
  readinessChecks: Record<string, () => Promise<void>>;
  /** Run in order on shutdown. */
  closers: Array<() => Promise<void> | void>;
}

/** What each request adds to the services (built once per request by server.ts). */
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
   * Who per-address limits count: the client's address, or for IPv6 its network (a /64 by
   * default), one spelling for each (app/server/client-address.ts). From X-Forwarded-For only as
   * far as TRUST_PROXY allows.
   */
  clientAddressKey: string;
  /** Whether the rendered page may be kept by the page cache (app/server/page-cache.ts). */
  setPageCacheable: (cacheable: boolean) => void;
  /**
   * A value unique to this page view, such as a form's idempotency key (random unless given). A
   * page kept by the data it was rendered from (decision 0077) gets a fresh one in every answer,
   * as with the CSP nonce.
   */
  newViewToken: (token?: string) => string;
  /** The view tokens issued so far for this request. */
  viewTokens: readonly string[];
}

declare module "@remix-run/node" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends RequestContext {}
}

/** Stripe's settings; config.server.ts has checked that both keys are present. */
function stripeOptions(config: Config): StripeProviderOptions {
  return {
    secretKey: config.STRIPE_SECRET_KEY!,
    webhookSecret: config.STRIPE_WEBHOOK_SECRET!,
    apiUrl: config.STRIPE_API_URL,
    timeoutMs: config.STRIPE_TIMEOUT_MS,
    storeOrigin: config.publicOrigin,
  };
}

/** config.server.ts has checked that ES2+ has its address and requester id. */
function esimProvisioner(config: Config): EsimProvisioner {
  if (config.ESIM_PROVIDER === "es2plus") {
    return createEs2PlusProvisioner({
      baseUrl: config.ES2PLUS_BASE_URL!,
      requesterId: config.ES2PLUS_REQUESTER_ID!,
      profileType: config.ES2PLUS_PROFILE_TYPE,
      timeoutMs: config.ES2PLUS_TIMEOUT_MS,
    });
  }
  return createSandboxProvisioner({ secret: config.sessionSecrets[0] });
}

/** Pages kept by their data: one per signed-in customer's page in view, about 30 KB each. */
const RENDERED_PAGES_KEPT = 300;

/** How often the mail queue is read; a form that may have queued an e-mail nudges it sooner. */
const MAIL_POLL_MS = 5_000;

/** How often vouchers and transfers past their date are looked up at the provider. */
const OVERDUE_SWEEP_MS = 5 * 60 * 1000;

/** What a cluster's worker is handed by its primary (app/server/cluster.server.ts). */
export interface ProcessRole {
  /** The primary's identity emulator; without it, this process starts its own if embedded. */
  embeddedIdentity?: EmbeddedIdentity;
  /** Whether this process runs the once-per-site timers (the overdue sweep); default true. */
  runsSweeps?: boolean;
}

function openConfiguredDatabase(config: Config, logger: Logger) {
  return openDatabase({
    dataDir: config.dataDir,
    logger,
    busyTimeoutMs: config.DB_BUSY_TIMEOUT_MS,
    databaseUrl: config.DATABASE_URL ?? null,
    poolSize: config.DATABASE_POOL_SIZE,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
}

/**
 * What must exist before several processes open the database together: the schema migrated and
 * the rate limit table created, once, by a cluster's primary before it forks.
 */
export async function prepareSharedStores(config: Config, logger: Logger): Promise<void> {
  const db = await openConfiguredDatabase(config, logger);
  try {
    await RateLimiter.shared(databaseDriver(db));
  } finally {
    await db.destroy();
  }
}

export async function createServices(
  config: Config,
  logger: Logger,
  role: ProcessRole = {},
): Promise<Services> {
  const secure = config.isProduction;
  const db = await openConfiguredDatabase(config, logger);
  const catalogue = createCatalogue(db);
  await catalogue.seed(PLAN_CATALOGUE);
  const sandbox =
    config.PAYMENT_PROVIDER === "sandbox"
      ? createSandboxGateway({
          db,
          notificationKeys: (config.PAYMENT_NOTIFICATION_SECRET
            ? [config.PAYMENT_NOTIFICATION_SECRET]
            : config.sessionSecrets
          ).map(deriveNotificationKey),
          logger,
        })
      : null;
  const payments = createPaymentService({
    db,
    provider: sandbox ?? createStripeProvider(stripeOptions(config)),
    logger,
    voucherHours: config.PAYMENT_VOUCHER_HOURS,
  });
  payments.registerPurpose(ORDER_PAYMENT_PURPOSE, orderPaymentPurpose);
  payments.registerPurpose(TOPUP_PAYMENT_PURPOSE, topupPaymentPurpose);
  // Vouchers and transfers past their date are settled even if nobody opens their page again
  // and the provider's notice was lost.
  // One process sweeps (a cluster's first worker): each would ask the provider the same questions.
  const overdueSweep =
    role.runsSweeps === false
      ? undefined
      : setInterval(() => {
          payments
            .refreshOverdue()
            .catch((error: unknown) =>
              logger.warn({ err: error }, "overdue payments sweep failed"),
            );
        }, OVERDUE_SWEEP_MS);
  overdueSweep?.unref();
  // In the database, so that every worker and every machine counts against one limit (0075).
  const rateLimiter = await RateLimiter.shared(databaseDriver(db));
  const identity = createIdentity(config, logger, rateLimiter, role.embeddedIdentity);
  const esim = esimProvisioner(config);
  const mailOutboxDir = config.SMTP_URL ? null : path.join(config.dataDir, "outbox");
  const transport: MailTransport = config.SMTP_URL
    ? createSmtpTransport(config.SMTP_URL)
    : createOutboxTransport(mailOutboxDir!);
  const mailer = createMailer({
    db,
    transport,
    from: config.MAIL_FROM ?? `"Conecta Móvil" <${config.CONTACT_EMAIL}>`,
    replyTo: config.CONTACT_EMAIL,
    origin: config.publicOrigin,
    esim,
    logger,
    support: { email: config.CONTACT_EMAIL, whatsappUrl: whatsAppLink(config.WHATSAPP_NUMBER) },
  });
  // Every worker sends, so that a form's nudge is heard where it was sent: each e-mail is claimed
  // by a conditional UPDATE before it goes (mailer.server.ts), so no two processes send one twice.
  mailer.start(MAIL_POLL_MS);
  return {
    config,
    logger,
    db,
    catalogue,
    payments,
    sandbox,
    portability: createPortabilityRequests({ db, nipBox: createNipBox(config.sessionSecrets) }),
    esim,
    mailer,
    mailOutboxDir,
    renderedPages:
      config.PAGE_CACHE_SECONDS > 0
        ? new PageCache({
            ttlMs: config.PAGE_CACHE_SECONDS * 1000,
            maxEntries: RENDERED_PAGES_KEPT,
            maxBodyBytes: 256 * 1024,
          })
        : null,
    cookies: {
      flash: createSealedCookie({
        name: "flash",
        secrets: config.sessionSecrets,
        secure,
        maxAgeSeconds: 60,
        schema: flashSchema,
      }),
      cart: createSealedCookie({
        name: "cart",
        secrets: config.sessionSecrets,
        secure,
        maxAgeSeconds: CART_COOKIE_MAX_AGE_SECONDS,
        schema: cartCookieSchema,
      }),
      orderAccess: createSealedCookie({
        name: "orders",
        secrets: config.sessionSecrets,
        secure,
        maxAgeSeconds: ORDER_ACCESS_MAX_AGE_SECONDS,
        schema: orderAccessSchema,
      }),
      portability: createSealedCookie({
        name: "portabilidad",
        secrets: config.sessionSecrets,
        secure,
        maxAgeSeconds: PORTABILITY_ACCESS_MAX_AGE_SECONDS,
        schema: portabilityAccessSchema,
      }),
      formKeys: createSealedCookie({
        name: "form_keys",
        secrets: config.sessionSecrets,
        secure,
        maxAgeSeconds: FORM_KEY_SECRET_MAX_AGE_SECONDS,
        schema: formKeySecretSchema,
      }),
      authSession: createSealedCookie({
        name: "auth_session",
        secrets: config.sessionSecrets,
        secure,
        maxAgeSeconds: SESSION_MAX_AGE_SECONDS,
        schema: sessionTokensSchema,
      }),
      authPending: createSealedCookie({
        name: "auth_pending",
        secrets: config.sessionSecrets,
        secure,
        maxAgeSeconds: PENDING_COOKIE_MAX_AGE_SECONDS,
        schema: pendingSignInSchema,
      }),
      accountTotpSetup: createSealedCookie({
        name: "auth_totp_setup",
        secrets: config.sessionSecrets,
        secure,
        maxAgeSeconds: ACCOUNT_TOTP_SETUP_MAX_AGE_SECONDS,
        schema: accountTotpSetupSchema,
      }),
      authOauth: createSealedCookie({
        name: "auth_oauth",
        secrets: config.sessionSecrets,
        secure,
        maxAgeSeconds: OAUTH_COOKIE_MAX_AGE_SECONDS,
        schema: oauthTransactionSchema,
      }),
      sandboxPayer: createSealedCookie({
        name: "sandbox_pagos",
        secrets: config.sessionSecrets,
        secure,
        maxAgeSeconds: SANDBOX_PAYER_MAX_AGE_SECONDS,
        schema: sandboxPayerSchema,
      }),
    },
    identity,
    rateLimiter,
    readinessChecks: { database: () => checkDatabase(db), identity: () => identity.ready() },
    closers: [
      () => clearInterval(overdueSweep),
      () => mailer.stop(),
      () => transport.close?.(),
      () => identity.close(),
      () => db.destroy(),
    ],
  };
}
