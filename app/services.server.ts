import path from "node:path";
import type { Logger } from "pino";
import { createIdentity, type EmbeddedIdentity } from "./auth/identity.server";
import { createAutoTopupScheduler } from "./auto-topup/scheduler.server";
import { createCatalogue } from "./catalog/catalog.server";
import { PLAN_CATALOGUE } from "./catalog/plans.data";
import { ORDER_PAYMENT_PURPOSE, orderPaymentPurpose } from "./checkout/order-payments.server";
import type { Config, DatabaseConfig } from "./config.server";
import type { Services } from "./context";
import { checkDatabase, databaseDriver, databasePool, openDatabase } from "./db/db.server";
import { createEs2PlusProvisioner } from "./esim/es2plus-provisioner.server";
import type { EsimProvisioner } from "./esim/provisioning";
import { createSandboxProvisioner } from "./esim/sandbox-provisioner.server";
import { whatsAppLink } from "./lib/external-links";
import { createLineJobs, type LineJobs } from "./line/line-jobs.server";
import { lineCodeBudgetUse } from "./line/line-proof.server";
import {
  awaitRegistration,
  createActivationRegistrations,
} from "./registration/activation-registrations.server";
import { operatorBss } from "./line/operator-bss.server";
import { createRunningOutSweep } from "./line/running-out-sweep.server";
import { RateLimiter } from "./lib/rate-limit";
import { createMailer } from "./mail/mailer.server";
import { createErrorReporter } from "./observability/error-reports.server";
import { measuredCalls, type CallOutcome, type Metrics } from "./observability/metrics.server";
import {
  createOutboxTransport,
  createSmtpTransport,
  type MailTransport,
} from "./mail/transport.server";
import { createPaymentService, pendingPaymentsByMethod } from "./payments/payments.server";
import { createSandboxGateway } from "./payments/sandbox/sandbox.server";
import { deriveNotificationKey } from "./payments/sandbox/signature.server";
import { createStripeProvider, type StripeProviderOptions } from "./payments/stripe/stripe.server";
import { createNipBox, createPortabilityRequests } from "./portability/requests.server";
import type { IdValidator } from "./registration/id-validation";
import { createHttpIdValidator } from "./registration/id-validation-http.server";
import { createSandboxIdValidator } from "./registration/id-validation-sandbox.server";
import { invoiceProvider } from "./invoicing/invoice-provider.server";
import { createRegistrationKeys } from "./registration/registrations.server";
import { createSealedCookies } from "./sealed-cookies.server";
import { createSmsOutbox } from "./sms/outbox.server";
import type { SmsSender } from "./sms/sender";
import { createSmppSender } from "./sms/smpp.server";
import { TOPUP_PAYMENT_PURPOSE, topupPaymentPurpose } from "./topup/topups.server";

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

/** config.server.ts has checked that SMPP has its address, credentials and sender. */
function smsSender(
  config: Config,
  logger: Logger,
): { sms: SmsSender; smsOutboxDir: string | null } {
  if (config.SMS_PROVIDER === "smpp") {
    return {
      sms: createSmppSender({
        url: config.SMPP_URL!,
        systemId: config.SMPP_SYSTEM_ID!,
        password: config.SMPP_PASSWORD!,
        sourceAddr: config.SMPP_SOURCE_ADDR!,
        logger,
      }),
      smsOutboxDir: null,
    };
  }
  const smsOutboxDir = path.join(config.dataDir, "sms-outbox");
  return { sms: createSmsOutbox(smsOutboxDir), smsOutboxDir };
}

/** config.server.ts has checked that the validation service has its address and key. */
function idValidator(config: Config, logger: Logger): IdValidator {
  if (config.ID_VALIDATION_PROVIDER === "http") {
    return createHttpIdValidator({
      url: config.ID_VALIDATION_URL!,
      apiKey: config.ID_VALIDATION_API_KEY!,
      timeoutMs: config.ID_VALIDATION_TIMEOUT_MS,
      logger,
    });
  }
  return createSandboxIdValidator();
}

/** How often the mail queue is read; a form that may have queued an e-mail nudges it sooner. */
const MAIL_POLL_MS = 5_000;

/** How often due line jobs are looked for; a paid top-up nudges the worker sooner. */
const LINE_JOBS_POLL_MS = 5_000;

/** How often vouchers and transfers past their date are looked up at the provider. */
const OVERDUE_SWEEP_MS = 5 * 60 * 1000;

/** What a cluster's worker is handed by its primary (server/cluster.server.ts). */
export interface ProcessRole {
  /** The primary's identity emulator; without it, this process starts its own if embedded. */
  embeddedIdentity?: EmbeddedIdentity;
  /** Whether this process runs the once-per-site timers (the overdue sweep); default true. */
  runsSweeps?: boolean;
}

function openConfiguredDatabase(config: DatabaseConfig, logger: Logger, metrics?: Metrics | null) {
  const engine = config.DATABASE_URL ? "postgres" : "sqlite";
  return openDatabase({
    dataDir: config.dataDir,
    logger,
    busyTimeoutMs: config.DB_BUSY_TIMEOUT_MS,
    databaseUrl: config.DATABASE_URL ?? null,
    poolSize: config.DATABASE_POOL_SIZE,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    onTimeout: metrics ? (kind) => metrics.databaseTimeout(engine, kind) : undefined,
  });
}

/**
 * An SMTP server's answer: a 5xx reply refuses the message for good, anything else (no
 * connection, a 4xx "try later", a timeout) is the server out of reach for now.
 */
function smtpOutcome(error: unknown): CallOutcome {
  const responseCode = (error as { responseCode?: unknown } | null)?.responseCode;
  if (typeof responseCode === "number") return responseCode >= 500 ? "refused" : "unavailable";
  return "unavailable";
}

/**
 * What must exist before several processes open the database together: the schema migrated and
 * the rate limit table created, once, by a cluster's primary before it forks.
 */
export async function prepareSharedStores(config: DatabaseConfig, logger: Logger): Promise<void> {
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
  /** The server's metrics (decision 0110); absent, nothing is measured. */
  metrics: Metrics | null = null,
): Promise<Services> {
  const db = await openConfiguredDatabase(config, logger, metrics);
  /** Each outside system timed and counted at its interface (a no-op without metrics). */
  const measured = <T extends object>(
    system: Parameters<typeof measuredCalls>[1],
    adapter: T,
    operations: ReadonlyArray<keyof T & string>,
    classify?: (error: unknown) => CallOutcome,
  ): T => (metrics ? measuredCalls(metrics, system, adapter, operations, classify) : adapter);
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
    provider: measured("payments", sandbox ?? createStripeProvider(stripeOptions(config)), [
      "createCheckout",
      "retrieve",
      "close",
      "createCustomer",
      "chargeSavedCard",
      "detachCard",
    ]),
    logger,
    voucherHours: config.PAYMENT_VOUCHER_HOURS,
    onStateChange: metrics ? (method, state) => metrics.payment(method, state) : undefined,
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
  const rateLimiter = await RateLimiter.shared(databaseDriver(db), {
    onRefused: metrics ? (key) => metrics.rateLimitRefused(key) : undefined,
  });
  const identity = createIdentity(
    config,
    logger,
    rateLimiter,
    role.embeddedIdentity,
    metrics
      ? ({ operation, outcome, seconds }) =>
          metrics.outsideCall("identity", operation, outcome, seconds)
      : undefined,
  );
  const esim = measured("esim", esimProvisioner(config), ["issue", "cancel"]);
  const operator = operatorBss(config, db);
  const bss = measured("bss", operator.bss, [
    "findLine",
    "usageByDay",
    "applyTopup",
    "activateLine",
    "recordRegistration",
  ]);
  const { bssSimulator } = operator;
  const { sms: smsAdapter, smsOutboxDir } = smsSender(config, logger);
  const sms = measured("sms", smsAdapter, ["send"]);
  const mailOutboxDir = config.SMTP_URL ? null : path.join(config.dataDir, "outbox");
  const transport: MailTransport = measured(
    "smtp",
    config.SMTP_URL ? createSmtpTransport(config.SMTP_URL) : createOutboxTransport(mailOutboxDir!),
    ["send"],
    smtpOutcome,
  );
  // A top-up's receipt works its line job first (it tells the line's vigencia, issue 48); the
  // line jobs are created below, after the mailer they nudge.
  let lineJobsForMail: LineJobs | null = null;
  const mailer = createMailer({
    db,
    transport,
    runLineJob: async (id) => (lineJobsForMail ? lineJobsForMail.runNow(id) : null),
    from: config.MAIL_FROM ?? `"Conecta Móvil" <${config.CONTACT_EMAIL}>`,
    replyTo: config.CONTACT_EMAIL,
    origin: config.publicOrigin,
    esim,
    bss,
    logger,
    support: { email: config.CONTACT_EMAIL, whatsappUrl: whatsAppLink(config.WHATSAPP_NUMBER) },
  });
  // Every worker sends, so that a form's nudge is heard where it was sent: each e-mail is claimed
  // by a conditional UPDATE before it goes (mailer.server.ts), so no two processes send one twice.
  mailer.start(MAIL_POLL_MS);
  // Every worker applies top-ups and activates lines, for the same reason: each job is claimed by
  // a conditional UPDATE before the BSS is called (line-jobs.server.ts), and the call is idempotent.
  // Each line an activation brings is registered to its holder (decision 0101): tried at once
  // after the activation, then again with backoff while the validation service does not answer.
  const registrationKeys = createRegistrationKeys(config.sessionSecrets);
  const lineIdValidator = measured("id-validation", idValidator(config, logger), ["validate"]);
  const activationRegistrations = createActivationRegistrations({
    db,
    keys: registrationKeys,
    idValidator: lineIdValidator,
    logger,
    onMailQueued: () => mailer.nudge(),
    smsNotices: { sms, publicOrigin: config.publicOrigin },
  });
  activationRegistrations.start(LINE_JOBS_POLL_MS);
  const lineJobs = createLineJobs({
    db,
    bss,
    logger,
    onActivated: {
      inTransaction: awaitRegistration,
      afterCommit: () => activationRegistrations.nudge(),
    },
  });
  lineJobsForMail = lineJobs;
  lineJobs.start(LINE_JOBS_POLL_MS);
  // Lines nobody opens are told they run out too. One process sweeps (a cluster's first worker),
  // as for the overdue payments; another machine sweeping the same lines queues no second e-mail
  // (the notice's record is written with it, running-out.server.ts).
  const runningOutSweep = createRunningOutSweep({
    db,
    bss,
    logger,
    onQueued: () => mailer.nudge(),
  });
  if (role.runsSweeps !== false && config.RUNNING_OUT_SWEEP_MINUTES > 0) {
    runningOutSweep.start(config.RUNNING_OUT_SWEEP_MINUTES * 60_000);
  }
  // Automatic top-ups (decisions 0120, 0121): one process schedules, as for the sweeps; each
  // automatic top-up is claimed in the database with a lease, so a scheduler on another machine
  // (or one restarted) never charges a line twice for one period.
  const autoTopupScheduler = createAutoTopupScheduler({
    db,
    bss,
    payments,
    logger,
    retryMinutes: config.AUTO_TOPUP_RETRY_MINUTES,
    onMailQueued: () => mailer.nudge(),
    onPaid: () => lineJobs.nudge(),
  });
  const schedulesAutoTopups = role.runsSweeps !== false && config.AUTO_TOPUP_SWEEP_SECONDS > 0;
  if (schedulesAutoTopups) autoTopupScheduler.start(config.AUTO_TOPUP_SWEEP_SECONDS * 1000);
  metrics?.watch({ databasePool: () => databasePool(db) });
  if (metrics && role.runsSweeps !== false) {
    // Read from the database, the same in every process: one process reads them (as it sweeps).
    metrics.watch({
      mailQueue: () => mailer.stats(),
      lineJobs: async () => {
        const stats = await lineJobs.stats();
        return {
          pending: stats.pending,
          failed: stats.refused,
          oldestPendingSeconds: stats.oldestPendingSeconds,
        };
      },
      pendingPayments: () => pendingPaymentsByMethod(db),
      lineCodeBudget: () => lineCodeBudgetUse({ config, rateLimiter }),
    });
  }
  const errors = await createErrorReporter(config, logger);
  return {
    config,
    logger,
    db,
    catalogue,
    payments,
    sandbox,
    portability: createPortabilityRequests({ db, nipBox: createNipBox(config.sessionSecrets) }),
    esim,
    bss,
    bssSimulator,
    sms,
    smsOutboxDir,
    idValidator: lineIdValidator,
    invoicing: invoiceProvider(config, logger),
    registrationKeys,
    mailer,
    mailOutboxDir,
    lineJobs,
    autoTopups: { scheduler: schedulesAutoTopups ? autoTopupScheduler : null },
    cookies: createSealedCookies({ secrets: config.sessionSecrets, secure: config.isProduction }),
    identity,
    rateLimiter,
    errors,
    readinessChecks: { database: () => checkDatabase(db), identity: () => identity.ready() },
    closers: [
      () => clearInterval(overdueSweep),
      () => mailer.stop(),
      () => lineJobs.stop(),
      () => activationRegistrations.stop(),
      () => runningOutSweep.stop(),
      () => autoTopupScheduler.stop(),
      () => transport.close?.(),
      () => ("close" in sms && typeof sms.close === "function" ? sms.close() : undefined),
      () => identity.close(),
      () => errors.flush(2_000),
      () => db.destroy(),
    ],
  };
}
