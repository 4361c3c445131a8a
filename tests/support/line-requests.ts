import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { vi } from "vitest";
import type { Customer } from "~/auth/tokens";
import type { Db } from "~/db/db.server";
import type { Bss } from "~/line/bss";
import { createLineJobs } from "~/line/line-jobs.server";
import { createBssSimulator } from "~/line/simulator.server";
import { RateLimiter } from "~/lib/rate-limit";
import { createSmsOutbox, readSmsOutbox } from "~/sms/outbox.server";
import { newBrowser } from "./browser-requests";
import type { RequestContext } from "~/context";

/** The SMS codes' limits (config.server.ts' LINE_CODE_*); unset, far above what a test reaches. */
export interface LineCodeLimitsUnderTest {
  perIp: number;
  perHolder: number;
  /** 0: no back-off between codes to one number. */
  backoffSeconds: number;
  failedChecks: number;
  budget: number;
}

/**
 * What the line's request modules need from a request (app/line/*-request.server.ts), over a
 * test database: the BSS simulator, the line jobs (no background rounds: `runNow` only), the
 * SMS outbox in a directory of its own, counters in memory, a logger that records, and a browser
 * whose cookies carry from request to request.
 */
export function lineRequests(
  db: Db,
  options: { bss?: Bss; limits?: Partial<LineCodeLimitsUnderTest> } = {},
) {
  const smsDir = mkdtempSync(path.join(tmpdir(), "line-sms-"));
  const bss = options.bss ?? createBssSimulator({ db });
  const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const mailer = { nudge: vi.fn() };
  const lineJobs = createLineJobs({ db, bss, logger });
  const services = {
    db,
    bss,
    lineJobs,
    sms: createSmsOutbox(smsDir),
    smsOutboxDir: smsDir,
    rateLimiter: RateLimiter.inMemory(),
    logger,
    mailer,
    // The line's page names the automatic top-up's card only if saved with this provider.
    payments: { provider: { name: "sandbox" } },
    requestId: "test-request",
    config: {
      sessionSecrets: ["line-requests-under-test-".padEnd(40, "s")],
      LINE_CODE_RATE_LIMIT_PER_IP: options.limits?.perIp ?? 1000,
      LINE_CODE_RATE_LIMIT_PER_HOLDER: options.limits?.perHolder ?? 1000,
      LINE_CODE_NUMBER_BACKOFF_SECONDS: options.limits?.backoffSeconds ?? 0,
      LINE_CODE_FAILED_CHECKS_PER_NUMBER: options.limits?.failedChecks ?? 1000,
      LINE_CODE_SMS_PER_HOUR: options.limits?.budget ?? 100_000,
    },
  };

  /** A browser of its own (its cookies), signed in as `customer` or not, at `address`. */
  function browser(customer: Customer | null = null, address = "198.51.100.7") {
    const cookies = newBrowser({
      ...services,
      session: customer ? { customer } : null,
      clientAddressKey: address,
    } as unknown as Partial<RequestContext>);
    return { request: () => cookies.request() };
  }

  return {
    services,
    bss,
    logger,
    mailer,
    browser,
    /** The SMS sent to `number`, newest first. */
    sms: (number: string) => readSmsOutbox(smsDir, { to: number, limit: 100 }),
    /** The code of the newest SMS to `number`. */
    async code(number: string): Promise<string> {
      const [newest] = await readSmsOutbox(smsDir, { to: number, limit: 1 });
      const code = /\b(\d{6})\b/.exec(newest?.text ?? "")?.[1];
      if (!code) throw new Error(`no code was sent to ${number}`);
      return code;
    },
    cleanup: () => rmSync(smsDir, { recursive: true, force: true }),
  };
}

export function customer(sub: string): Customer {
  return {
    sub,
    email: `${sub}@example.mx`,
    emailVerified: true,
    identityProviders: [],
    username: sub,
  } as Customer;
}

/** A form post, as the browser sends it. */
export function post(url: string, fields: Record<string, string>) {
  return new Request(url, { method: "POST", body: new URLSearchParams(fields) });
}

/** What a `data()` or redirect answered: its status, body and headers. */
export function answerOf(value: unknown): {
  status: number;
  body: unknown;
  headers: Headers;
} {
  if (value instanceof Response) {
    return { status: value.status, body: null, headers: value.headers };
  }
  const { data, init } = value as { data: unknown; init: ResponseInit | null };
  return {
    status: init?.status ?? 200,
    body: data,
    headers: new Headers(init?.headers),
  };
}
