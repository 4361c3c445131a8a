import type { Db } from "~/db/db.server";
import type { Customer } from "./tokens";
import type { RequestContext } from "~/context";

/**
 * Each account's e-mail address as it was when the customer last signed in (table
 * account_emails, decision 0094). Cognito keeps the address; the store learns it only from a
 * signed-in customer's tokens, so what it writes to an account nobody is looking at (the line's
 * running-out notice) goes to the address recorded here. Only an address Cognito says was
 * proved (a code, or an identity provider's word) is kept: an unproved one may be someone else's.
 */
export async function recordAccountEmail(
  db: Db,
  customer: Pick<Customer, "sub" | "email" | "emailVerified">,
  now: Date,
): Promise<void> {
  if (!customer.emailVerified) {
    await db.deleteFrom("account_emails").where("account_sub", "=", customer.sub).execute();
    return;
  }
  const recordedAt = now.toISOString();
  await db
    .insertInto("account_emails")
    .values({ account_sub: customer.sub, email: customer.email, recorded_at: recordedAt })
    .onConflict((conflict) =>
      conflict
        .column("account_sub")
        .doUpdateSet({ email: customer.email, recorded_at: recordedAt }),
    )
    .execute();
}

/**
 * The signed-in customer's address, recorded when a sign-in completes and when the customer has
 * just proved it (the session's tokens then say so). A database that cannot take it now does not
 * stop either: the next sign-in records it.
 */
export async function rememberAccountEmail(context: RequestContext): Promise<void> {
  const customer = context.session?.customer;
  if (!customer) return;
  try {
    await recordAccountEmail(context.db, customer, new Date());
  } catch (error) {
    context.logger.warn({
      msg: "account e-mail not recorded",
      requestId: context.requestId,
      code: (error as { code?: unknown } | null)?.code,
    });
  }
}
