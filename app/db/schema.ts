import type { ColumnType, Generated } from "kysely";
/**
 * The database as Kysely sees it. Column types are the portable subset shared by SQLite and
 * PostgreSQL: text, integer (money in whole pesos, flags as 0/1) and ISO-8601 timestamps as text.
 */
export interface Database {
  plans: PlansTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  folio_counters: FolioCountersTable;
  payments: PaymentsTable;
  sandbox_checkouts: SandboxCheckoutsTable;
  portability_requests: PortabilityRequestsTable;
  topups: TopupsTable;
  revoked_access: RevokedAccessTable;
  account_sign_outs: AccountSignOutsTable;
  account_emails: AccountEmailsTable;
  passkey_uses: PasskeyUsesTable;
  payment_events: PaymentEventsTable;
  esim_activations: EsimActivationsTable;
  esim_replaced_profiles: EsimReplacedProfilesTable;
  order_links: OrderLinksTable;
  mail_queue: MailQueueTable;
  status_changes: StatusChangesTable;
  bss_sim_lines: BssSimLinesTable;
  bss_sim_packages: BssSimPackagesTable;
  bss_sim_usage: BssSimUsageTable;
  bss_sim_topups: BssSimTopupsTable;
  bss_sim_activations: BssSimActivationsTable;
  lines: LinesTable;
  line_jobs: LineJobsTable;
  line_codes: LineCodesTable;
  line_notices: LineNoticesTable;
  shipped_sims: ShippedSimsTable;
  registrations: RegistrationsTable;
  registration_attempts: RegistrationAttemptsTable;
  registration_locks: RegistrationLocksTable;
  registration_notices: RegistrationNoticesTable;
  assisted_validations: AssistedValidationsTable;
  order_holders: OrderHoldersTable;
  pending_registrations: PendingRegistrationsTable;
  order_port_ins: OrderPortInsTable;
  invoices: InvoicesTable;
  invoice_profiles: InvoiceProfilesTable;
  payment_customers: PaymentCustomersTable;
  saved_cards: SavedCardsTable;
  sandbox_payment_methods: SandboxPaymentMethodsTable;
  auto_topups: AutoTopupsTable;
  auto_topup_charges: AutoTopupChargesTable;
}

/** 0 or 1: booleans stored the same way in every database. */
export type Flag = 0 | 1;

export interface PlansTable {
  id: string;
  name: string;
  price: number;
  validity_days: number;
  data_gb: number;
  /** null: unlimited. */
  minutes: number | null;
  /** null: unlimited. */
  sms: number | null;
  covers_mexico: Flag;
  covers_usa: Flag;
  covers_canada: Flag;
  unlimited_social: Flag;
  /** Comma-separated brand names, e.g. "WhatsApp, Facebook". */
  social_networks: string;
  hotspot: Flag;
  sim_physical: Flag;
  sim_esim: Flag;
  fair_use_note: string;
  tariff_registration: string;
  position: number;
  /** A plan removed from the catalogue file stays for the orders that name it. */
  active: Flag;
  updated_at: string;
}

/** cancelled: its cash voucher or transfer expired unpaid. */
export type OrderStatus = "pending_payment" | "paid" | "cancelled";

export interface OrdersTable {
  /** Unguessable reference (128 random bits): the only way to reach an order from outside. */
  id: string;
  /** Human folio, PED-YYYY-NNNNNN. */
  folio: string;
  idempotency_key: string;
  status: OrderStatus;
  total: number;
  full_name: string;
  email: string;
  phone_number: string;
  street: string;
  exterior_number: string;
  interior_number: string | null;
  neighborhood: string;
  postal_code: string;
  municipality: string;
  state: string;
  terms_accepted_at: string;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
  /** The Cognito `sub` of the customer signed in at checkout; null for a guest. */
  customer_sub: string | null;
  /** "physical" or "esim" (~/catalog/terms). An eSIM order's address columns are empty strings. */
  sim_type: string;
  /** When the operator shipped the physical SIM (`npm run ops`), with which carrier and number. */
  shipped_at: string | null;
  carrier: string | null;
  tracking_number: string | null;
}

/** pending: to be sent (again) at next_attempt_at; sent; failed: given up after the last try. */
export type MailStatus = "pending" | "sent" | "failed";

export interface MailQueueTable {
  id: string;
  /** One e-mail per event ("order-paid:<order id>"): enqueuing the same event again is a no-op. */
  dedupe_key: string;
  to_address: string;
  /** Which message (app/mail/templates.ts). */
  template: string;
  /** JSON: what the template needs. */
  data: string;
  status: MailStatus;
  attempts: number;
  next_attempt_at: string;
  /** The last failure, without the message's contents. */
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

/** A change made by the operator, with its time and reason (the audit trail). */
export interface StatusChangesTable {
  id: string;
  subject: "order" | "topup" | "portability" | "line_job" | "invoice";
  /** The order's, top-up's or request's id; a line job's id. */
  subject_id: string;
  from_status: string | null;
  /** "shipped", "in_progress" (scheduled), "completed", "rejected"… */
  to_status: string;
  /** JSON: the tracking number, the scheduled date… */
  detail: string | null;
  reason: string | null;
  /** "ops:<operating-system user>". */
  actor: string;
  created_at: string;
}

/** The activation code of one eSIM of a paid order (position counts the order's SIMs from 0). */
export interface EsimActivationsTable {
  order_id: string;
  position: number;
  /** Which provisioner issued it ("sandbox", "es2plus"). */
  provisioner: string;
  /** The LPA activation code the QR encodes: LPA:1$<SM-DP+ address>$<matching id>. */
  activation_code: string;
  iccid: string;
  /** 1: issued by the sandbox, installs nothing; the page says so. */
  test_code: Flag;
  created_at: string;
  /** When the profile was installed on a phone: from then on its code is never shown. */
  installed_at: string | null;
  /** How many times the customer had the code replaced (0: the first one). */
  generation: number;
}

/** A code the customer had replaced: its profile was cancelled at the provisioner. */
export interface EsimReplacedProfilesTable {
  order_id: string;
  position: number;
  generation: number;
  provisioner: string;
  iccid: string;
  replaced_at: string;
}

export type OrderLinkPurpose = "lookup" | "esim";

/** A one-time link to open an order, e-mailed to the order's address (decision 0082). */
export interface OrderLinksTable {
  /** SHA-256 (hex) of the link's secret: the secret itself is only in the e-mail. */
  token_hash: string;
  order_id: string;
  purpose: OrderLinkPurpose;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface OrderLinesTable {
  order_id: string;
  position: number;
  plan_id: string;
  /** The name and price at the time of purchase: the catalogue may change later. */
  plan_name: string;
  unit_price: number;
  quantity: number;
  line_total: number;
}

export interface FolioCountersTable {
  /** "PED" for orders, "POR" for portability requests; each document type has its own series. */
  series: string;
  year: number;
  last_number: number;
}

/**
 * expired: a voucher or transfer not paid in time (what it paid is cancelled); replaced: the
 * customer chose another method before paying (what it paid still waits for payment).
 */
export type PaymentStatus = "pending" | "approved" | "declined" | "expired" | "replaced";

export interface PaymentsTable {
  id: string;
  /** What is being paid: "order", later "topup" …; `reference` is that thing's id. */
  purpose: string;
  reference: string;
  amount: number;
  currency: string;
  status: PaymentStatus;
  provider: string;
  provider_reference: string | null;
  checkout_url: string | null;
  decline_reason: string | null;
  card_brand: string | null;
  card_last4: string | null;
  created_at: string;
  updated_at: string;
  settled_at: string | null;
  /** "card", "cash" or "spei" (app/payments/provider.ts). */
  method: string;
  /** JSON of the voucher or transfer details (PaymentInstructions), once the provider issued them. */
  instructions: string | null;
  /** The voucher number or transfer reference: unique, never handed out twice. */
  instruction_reference: string | null;
  /** When a voucher or transfer stops being payable (ISO-8601). */
  expires_at: string | null;
  /** A charge of a saved card (saved_cards.id, decision 0119); null for the provider's page. */
  saved_card_id: string | null;
}

/** A provider notification already applied (its id), so that a repeat changes nothing. */
export interface PaymentEventsTable {
  provider: string;
  event_id: string;
  received_at: string;
}

/** expired: a voucher past its date, or a checkout closed when the customer chose another way. */
export type SandboxCheckoutStatus = "open" | "approved" | "declined" | "expired";

/** The sandbox provider's own records, as a real provider would keep them on its side. */
export interface SandboxCheckoutsTable {
  id: string;
  merchant_reference: string;
  amount: number;
  currency: string;
  description: string;
  return_url: string;
  notify_url: string;
  status: SandboxCheckoutStatus;
  decline_reason: string | null;
  card_brand: string | null;
  card_last4: string | null;
  created_at: string;
  completed_at: string | null;
  method: string;
  /** A cash voucher's number, or a transfer's numeric reference. */
  reference: string | null;
  /** The CLABE a transfer goes to (one per checkout). */
  clabe: string | null;
  expires_at: string | null;
  /** A card checkout whose card is saved, on its way, to this customer of the sandbox (0119). */
  save_for_customer: string | null;
  /** The saved method a charge used, or the one the card was saved as. */
  payment_method_id: string | null;
  /** A charge of a saved card: the store's key, as Stripe's Idempotency-Key (one charge per key). */
  idempotency_key: string | null;
  /** 1: a charge of a saved card made with nobody at the page (an automatic top-up). */
  off_session: Flag;
}

/**
 * received and in_progress are open: a number has at most one open request. in_progress is
 * "Programada": the operator scheduled the port for `scheduled_for`.
 */
export type PortabilityStatus = "received" | "in_progress" | "completed" | "rejected";

export interface PortabilityRequestsTable {
  /** Unguessable (128 random bits). */
  id: string;
  /** Human folio, POR-YYYY-NNNNNN. */
  folio: string;
  idempotency_key: string;
  /** 10 digits, no country code. */
  phone_number: string;
  /** The NIP de portabilidad sealed with a key derived from SESSION_SECRET and bound to `id`. */
  nip_sealed: string;
  full_name: string;
  email: string;
  /** 18 characters, upper case. */
  curp: string;
  /** An id of app/portability/carriers.ts. */
  current_carrier: string;
  /** The new SIM's ICCID, when the customer already has it. */
  iccid: string | null;
  status: PortabilityStatus;
  terms_accepted_at: string;
  created_at: string;
  updated_at: string;
  /** The date (YYYY-MM-DD) the port is scheduled for, once in_progress. */
  scheduled_for: string | null;
  /** Why it was rejected, in Spanish, as the customer is told. */
  rejection_reason: string | null;
  /** The Cognito `sub` of the customer signed in when requesting; null for a guest. */
  customer_sub: string | null;
}

/** cancelled: its cash voucher or transfer expired unpaid. */
export type TopupStatus = "pending_payment" | "paid" | "cancelled";

export interface TopupsTable {
  /** Random id (128 bits): the receipt's address (/recarga/<id>), unguessable. */
  id: string;
  /** Human folio, REC-YYYY-NNNNNN. */
  folio: string;
  idempotency_key: string;
  /** The Cognito `sub` of the customer signed in when topping up; null without an account. */
  customer_sub: string | null;
  /** Where the receipt goes, if the customer gave an address. */
  email: string | null;
  /** The ten digits of the line topped up. */
  phone_number: string;
  amount: number;
  status: TopupStatus;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
}

/**
 * What a browser held when its customer signed out: the session, and the guest access to orders
 * and portability requests. A copy of those cookies saved before sign-out must open nothing, so
 * their ids are kept here until no copy of the cookie can still be valid.
 */
/** When an account last signed out of every session (decision 0134). */
export interface AccountSignOutsTable {
  /** Lower case. */
  account_email: string;
  /** ISO-8601: sessions authenticated before this are over. */
  signed_out_at: string;
}

export interface RevokedAccessTable {
  access_id: string;
  /** ISO-8601: after this, every copy of the cookie has expired and the row can go. */
  expires_at: string;
}

/**
 * Each account's e-mail address as the identity service told it when the customer last signed
 * in (app/auth/account-emails.server.ts): for what the store writes to an account nobody is
 * looking at (the running-out notice, decision 0094).
 */
export interface AccountEmailsTable {
  account_sub: string;
  email: string;
  recorded_at: string;
}

/** When each passkey last signed its account in (app/auth/passkey-uses.server.ts, decision 0122). */
export interface PasskeyUsesTable {
  account_sub: string;
  credential_id: string;
  last_used_at: string;
}

/**
 * The BSS simulator's records (app/line/simulator.server.ts, decision 0088): what the operator's
 * BSS keeps on its side. Only the simulator reads or writes them.
 */
export interface BssSimLinesTable {
  /** Ten digits; assigned ones are 5599NNNNNN. */
  number: string;
  iccid: string;
  /** A LineStatus (~/line/line.ts). */
  status: string;
  /** Data granted since the line last lapsed (unused data of a lapsed package included), MB. */
  data_total_mb: number;
  data_used_mb: number;
  created_at: string;
  updated_at: string;
}

/** A package given to a simulated line; those bought ahead start when the one before ends. */
export interface BssSimPackagesTable {
  number: string;
  /** 0, 1, 2… in the order they were given. */
  position: number;
  /** "activation:<external id>" or "topup:<top-up id>". */
  applied_by: string;
  offer_id: string;
  name: string;
  starts_at: string;
  ends_at: string;
  /** null: unlimited within fair use; 0: none. */
  minutes_allowance: number | null;
  sms_allowance: number | null;
  unlimited_social: Flag;
  minutes_used: number;
  sms_used: number;
  social_used_mb: number;
}

/** What a simulated line used on one Mexico City day. */
export interface BssSimUsageTable {
  number: string;
  /** YYYY-MM-DD. */
  day: string;
  data_mb: number;
  minutes: number;
  sms: number;
  social_mb: number;
}

/** A top-up the simulator applied, once per top-up id. */
export interface BssSimTopupsTable {
  topup_id: string;
  number: string;
  amount: number;
  offer_id: string;
  /** The simulator's own reference, answered to every repeat. */
  reference: string;
  applied_at: string;
}

/** A line the simulator activated, once per caller's reference. */
export interface BssSimActivationsTable {
  external_id: string;
  number: string;
  iccid: string;
  offer_id: string;
  /** The ported number asked for; null when the simulator assigned one. */
  requested_number: string | null;
  created_at: string;
}

export type LineSource = "esim" | "sim" | "portability" | "added";

/** A line in an account (app/line/, issue 26); the line itself lives in the BSS. */
export interface LinesTable {
  number: string;
  account_sub: string;
  source: LineSource;
  source_ref: string | null;
  linked_at: string;
}

export type LineJobKind = "apply-topup" | "activate-line" | "record-registration";
export type LineJobState = "pending" | "done" | "refused";

/** Work for the BSS, queued with what decided it and done once (app/line/line-jobs.server.ts). */
export interface LineJobsTable {
  id: string;
  kind: LineJobKind;
  payload: string;
  state: LineJobState;
  attempts: Generated<number>;
  next_attempt_at: string;
  last_error: string | null;
  result: string | null;
  created_at: string;
  done_at: string | null;
}

/** What a code proves the number for: adding it to an account, its balance, registering its holder. */
export type LineCodePurpose = "add-line" | "balance" | "registration";

/** A code sent by SMS to prove a number; only its hash is kept. */
export interface LineCodesTable {
  id: string;
  purpose: LineCodePurpose;
  number: string;
  holder: string;
  code_hash: string;
  attempts: Generated<number>;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A running-out notice sent, once per package. */
export interface LineNoticesTable {
  number: string;
  package_key: string;
  sent_at: string;
}

/** A physical SIM shipped with an order, with the ICCID printed on it (decision 0092). */
export interface ShippedSimsTable {
  order_id: string;
  /** 0-based among the order's SIMs, in the order of its lines. */
  position: number;
  iccid: string;
  recorded_at: string;
}

/** How a registration was made: online, at checkout, by a portability, or in a store. */
export type RegistrationChannel = "online" | "checkout" | "portability" | "tienda";

/**
 * A line registered to its holder (app/registration/, decision 0097): what the rule lets the
 * operator keep and nothing more. The holder's CURP, RFC or passport is sealed; an HMAC counts.
 */
export interface RegistrationsTable {
  id: string;
  folio: string;
  number: string;
  holder_kind: "fisica" | "extranjera" | "moral";
  holder_name: string;
  holder_key_hash: string;
  holder_key_sealed: string;
  holder_key_masked: string;
  /** HMAC of "passport:<number>" for a foreigner, whatever the nationality (decision 0136). */
  passport_hash: string | null;
  identification_type: string;
  validation_outcome: "valid";
  validation_source: string;
  validation_reference: string | null;
  channel: RegistrationChannel;
  account_sub: string | null;
  registered_at: string;
  replaced_at: string | null;
  replaced_by: string | null;
}

/** An identity validation of a number, whatever it said (nothing of the holder). */
export interface RegistrationAttemptsTable {
  id: string;
  number: string;
  outcome: string;
  channel: RegistrationChannel;
  attempted_at: string;
}

/** A notice of a new registration to an earlier one's contact, with its "no fui yo" link. */
export interface RegistrationNoticesTable {
  id: string;
  /** SHA-256 (base64url) of the link's token. */
  token_hash: string;
  registration_id: string;
  channel: "email" | "sms";
  created_at: string;
  disputed_at: string | null;
}

/** A request for an assisted validation of a line's holder (decision 0140). */
export interface AssistedValidationsTable {
  id: string;
  /** "VAL-2026-000001". */
  folio: string;
  idempotency_key: string;
  number: string;
  contact_kind: "phone" | "email";
  contact: string;
  time_window: "manana" | "tarde" | "noche";
  created_at: string;
}

/** The lock a registration takes on its holder's bucket before counting the holder's lines. */
export interface RegistrationLocksTable {
  bucket: number;
  taken_at: string;
}

/** The holder given at checkout, sealed, until the order's lines are registered (decision 0101). */
export interface OrderHoldersTable {
  id: string;
  order_ref: string;
  holder_kind: "fisica" | "extranjera";
  holder_sealed: string;
  holder_key_masked: string;
  lines_left: number;
  created_at: string;
  /** When the holder showed their identification (decision 0139); the lines wait until then. */
  proved_at: string | null;
  /** The identity validation's reference of that proof. */
  proof_reference: string | null;
  /** Refused proofs: three end the online path for the order (they are never reset). */
  proof_failures: ColumnType<number, number | undefined, number>;
  proof_failed_at: string | null;
}

export type PendingRegistrationSource = "order" | "portability";
export type PendingRegistrationState = "pending" | "suspended";

/** An activated line waiting for its registration, or left without one (decision 0101). */
export interface PendingRegistrationsTable {
  number: string;
  source: PendingRegistrationSource;
  source_ref: string;
  account_sub: string | null;
  state: PendingRegistrationState;
  reason: string | null;
  attempts: number;
  next_attempt_at: string;
  created_at: string;
  updated_at: string;
}

/** The payment provider's customer of an account (a Stripe Customer), decision 0119. */
export interface PaymentCustomersTable {
  account_sub: string;
  provider: string;
  customer_ref: string;
  created_at: string;
}

/**
 * A card an account saved at the provider (decision 0119): only the provider's ids, the brand,
 * the last four digits and the expiry; never the number.
 */
export interface SavedCardsTable {
  /** Ours ("tj_…"): what forms and automatic top-ups name. */
  id: string;
  account_sub: string;
  provider: string;
  customer_ref: string;
  /** The provider's saved payment method (Stripe `pm_…`, the sandbox's `spm_…`). */
  method_ref: string;
  /** A CardBrand (app/payments/provider.ts). */
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  created_at: string;
}

/** What a saved sandbox card does when charged later (its test card's rule, never its number). */
export type SandboxCardBehaviour = "approve" | "decline" | "insufficient_funds" | "authenticate";

/** The sandbox provider's saved cards, as a real provider keeps them in its vault. */
export interface SandboxPaymentMethodsTable {
  id: string;
  customer_ref: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  behaviour: SandboxCardBehaviour;
  created_at: string;
  detached_at: string | null;
}

/** "Recargar cuando mi paquete venza" or "cuando me queden menos de X MB". */
export type AutoTopupTrigger = "expiry" | "low_data";

/** off: switched off by the customer; stopped: by the store (two failed charges, line moved). */
export type AutoTopupState = "active" | "stopped" | "off";

/** An automatic top-up of a line of an account (decision 0120). */
export interface AutoTopupsTable {
  id: string;
  account_sub: string;
  number: string;
  /** One of the offered top-up amounts (app/topup/amounts.ts). */
  amount: number;
  trigger: AutoTopupTrigger;
  /** low_data: below this many megabytes; null for expiry. */
  threshold_mb: number | null;
  /** At most this many charges in a calendar month (Mexico City). */
  monthly_max: number;
  saved_card_id: string;
  /** Where its e-mails go: the account's address when it was set. */
  email: string;
  state: AutoTopupState;
  /** Why the store stopped it: "failures" (two declined charges) or "line_moved". */
  stop_reason: string | null;
  /** Declined charges in a row; two stop it. */
  failures: number;
  /** The scheduler that holds it now, and until when (decision 0121). */
  lease_owner: string | null;
  lease_until: string | null;
  /** When a scheduler last looked at its line. */
  checked_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * scheduled: due at `due_at` (its notice sent); retrying: declined once, tried again at
 * `due_at`; paid (by the scheduler, or by the customer from the link of an awaiting_customer);
 * failed: declined twice (the automatic top-up stopped); awaiting_customer: the bank asked for
 * authentication, the customer was sent a link to pay; skipped: not charged (the monthly cap, the
 * line topped up otherwise, a link left unpaid).
 */
export type AutoTopupChargeState =
  "scheduled" | "retrying" | "paid" | "failed" | "awaiting_customer" | "skipped";

/** One period of an automatic top-up: at most one per line and period (decision 0120). */
export interface AutoTopupChargesTable {
  id: string;
  auto_topup_id: string;
  number: string;
  /** "vence:<ISO end of the vigencia>" or "sin-paquete:<YYYY-MM-DD>". */
  period: string;
  amount: number;
  state: AutoTopupChargeState;
  /** The top-up it pays, once made. */
  topup_id: string | null;
  /** Charges tried (a provider out of reach is not one). */
  attempts: number;
  due_at: string;
  /** A decline's reason, or why it was skipped. */
  last_result: string | null;
  created_at: string;
  updated_at: string;
  settled_at: string | null;
}

export type OrderPortInState = "waiting" | "filed" | "refused";

/**
 * A number a checkout asked to keep, for one SIM of the order (decision 0106): waiting for the
 * order's payment, filed as the portability request with the same id, or refused (the number had
 * a request in process when the order was paid).
 */
export interface OrderPortInsTable {
  id: string;
  order_ref: string;
  position: number;
  phone_number: string;
  current_carrier: string;
  state: OrderPortInState;
  reason: string | null;
  /** Only while waiting: the NIP sealed as a request's, bound to `id`. */
  nip_sealed: string | null;
  full_name: string | null;
  curp: string | null;
  created_at: string;
  updated_at: string;
}

/** stamping: claimed, the PAC being asked; waiting: not issued yet (refused, or the PAC out of reach). */
export type InvoiceState = "stamping" | "waiting" | "issued" | "cancelled";

/** A CFDI invoice of a paid order or top-up: one per payment (issue 29, decision 0116). */
export interface InvoicesTable {
  id: string;
  /** "order:<order ref>" or "topup:<top-up id>": unique. */
  payment_key: string;
  purpose: "order" | "topup";
  reference: string;
  purchase_folio: string;
  /** FAC-YYYY-NNNNNN. */
  folio: string;
  account_sub: string | null;
  state: InvoiceState;
  attempt: number;
  attempt_refused: Flag;
  claim_token: string | null;
  claimed_at: string | null;
  receiver_rfc: string | null;
  receiver_name: string | null;
  receiver_regimen: string | null;
  receiver_postal_code: string | null;
  uso: string | null;
  email: string | null;
  forma_pago: string | null;
  last_refusal: string | null;
  provider: string | null;
  provider_invoice_id: string | null;
  uuid: string | null;
  subtotal: string | null;
  total_tax: string | null;
  total: string | null;
  /** JSON of the CFDI as built (app/invoicing/cfdi.ts). */
  cfdi: string | null;
  /** JSON of the seal's parts (app/invoicing/provider.ts StampDetails). */
  stamp: string | null;
  xml: string | null;
  issued_at: string | null;
  cancellation_status: "pending" | "accepted" | null;
  cancel_motive: string | null;
  substitute_uuid: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The fiscal data an account saved for its next invoice. */
export interface InvoiceProfilesTable {
  account_sub: string;
  rfc: string;
  name: string;
  regimen: string;
  postal_code: string;
  uso: string;
  email: string;
  updated_at: string;
}
