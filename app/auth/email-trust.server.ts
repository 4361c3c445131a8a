import type { SocialProviderId } from "~/config.server";
import { IDENTITY_PROVIDER_NAMES } from "./oauth.server";
import type { Customer } from "./tokens";
import type { RequestContext } from "~/context";

/**
 * Whether the store takes the customer's e-mail as proved theirs, so that what was bought as a
 * guest with it joins the account (decision 0081). Cognito's `email_verified` is that proof for a
 * password account: Cognito sets it only when a code it sent to the address comes back (sign-up
 * confirmation, attribute verification) or an operator sets it. For a user who signed in through
 * (or is linked to) an identity provider, the flag is what that provider's attribute mapping
 * wrote, so it counts only when every such provider is one the operator trusts to verify
 * addresses (TRUSTED_EMAIL_PROVIDERS, Google by default).
 */
export function emailProven(
  customer: Pick<Customer, "emailVerified" | "identityProviders">,
  trustedProviders: readonly SocialProviderId[],
): boolean {
  const trustedNames = trustedProviders.map((id) => IDENTITY_PROVIDER_NAMES[id]);
  return (
    customer.emailVerified &&
    customer.identityProviders.every((name) => trustedNames.includes(name))
  );
}

/** The signed-in customer as their orders are looked up: their e-mail counts only when proved. */
export function asOrderOwner(context: Pick<RequestContext, "config">, customer: Customer) {
  return {
    sub: customer.sub,
    email: customer.email,
    emailProven: emailProven(customer, context.config.TRUSTED_EMAIL_PROVIDERS),
  };
}
