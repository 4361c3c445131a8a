import { alertText } from "./pages.mjs";

// Everything the soak observed: every answer's status and latency by route, the journeys, the
// server errors with enough detail to report them, and the ledger of what customers were told.

/** Details kept of the first failures of each kind (the counts are always complete). */
const MAX_DETAILS = 20;

/** A paid journey, paying by `method` (card, cash, spei), before its pages have shown anything. */
const nothingShownYet = (method) => ({
  outcome: "unknown",
  folios: [],
  amountsShown: [],
  method,
  instructionsShown: [],
  voucherOutcome: null,
  providerConfirmedPaid: false,
  providerConfirmedExpired: false,
  shownPaid: false,
  shownCancelled: false,
  shownStatus: null,
  problems: [],
});

/** What the customers were told, in the shape scripts/soak/reconcile.ts reads. */
export class Ledger {
  orders = [];
  topups = [];
  portabilityRequests = [];
  /** Lines added with a code, eSIMs installed, usage recorded with `npm run ops -- consumo`. */
  line = { added: [], installs: [], usage: [] };
  /** Lines registered to their holders at /registro-de-linea. */
  registration = { registrations: [] };
  /** Automatic top-ups switched on for a customer's line (issue 29). */
  autoTopups = [];
  /** Invoices asked for at /facturacion, with every UUID the pages showed. */
  invoicing = { invoices: [] };

  /** An invoice about to be asked for; the journey records the UUIDs the pages then show. */
  invoice({ journey, kind, ref }) {
    const told = { journey, kind, ref, outcome: "unknown", uuids: [], problems: [] };
    this.invoicing.invoices.push(told);
    return told;
  }

  /** A checkout form about to be submitted; the journey fills in what the pages then show. */
  order({ journey, idempotencyKey, method }) {
    const told = { journey, idempotencyKey, refs: [], ...nothingShownYet(method) };
    this.orders.push(told);
    return told;
  }

  topup({ journey, idempotencyKey, phoneNumber, amount, method }) {
    const told = {
      journey,
      idempotencyKey,
      phoneNumber,
      amount,
      refs: [],
      ...nothingShownYet(method),
      /** The receipt, looked at again, said the top-up reached the line. */
      shownApplied: false,
    };
    this.topups.push(told);
    return told;
  }

  lineAdded({ journey, customer, number }) {
    const told = { journey, customer, number, outcome: "unknown" };
    this.line.added.push(told);
    return told;
  }

  install({ journey, orderRef, position }) {
    const told = { journey, orderRef, position, outcome: "unknown" };
    this.line.installs.push(told);
    return told;
  }

  /** An `ops consumo` call about to run; its exit code is filled in when it ends. */
  usage({ number, dataMb, minutes, sms }) {
    const asked = { number, dataMb, minutes, sms, exitCode: null };
    this.line.usage.push(asked);
    return asked;
  }

  /**
   * A registration about to be submitted: the holder as typed, their key only masked (the
   * ledger, like the store's lists, keeps no whole CURP). The journey fills in what it was told.
   */
  lineRegistration({ journey, customer, number, holderName, holderKeyMasked }) {
    const told = {
      journey,
      customer,
      number,
      holderName,
      holderKeyMasked,
      outcome: "unknown",
      folio: null,
      refusal: null,
    };
    this.registration.registrations.push(told);
    return told;
  }

  /** An automatic top-up's form about to be sent; "told" once the page says it is on. */
  autoTopup({ journey, customer, number }) {
    const told = { journey, customer, number, outcome: "unknown" };
    this.autoTopups.push(told);
    return told;
  }

  portability({ journey, idempotencyKey, phoneNumber }) {
    const told = { journey, idempotencyKey, phoneNumber, outcome: "unknown", folios: [] };
    this.portabilityRequests.push(told);
    return told;
  }
}

export class Recorder {
  ledger = new Ledger();
  requests = 0;
  statusCounts = new Map();
  /** route → { requests, statuses: Map, latencies: number[] } */
  routes = new Map();
  latencies = [];
  serverErrors = [];
  serverErrorCount = 0;
  networkErrors = [];
  networkErrorCount = 0;
  journeys = new Map();
  journeyFailures = [];
  doubleSubmissions = 0;
  /** Line pages of an account and /saldo summaries that showed a line's figures. */
  lineViews = 0;
  balanceViews = 0;
  /** Invoices shown at /facturacion. */
  invoicesShown = 0;

  invoiceShown() {
    this.invoicesShown += 1;
  }

  /** /registro-de-linea: receipts shown, validations refused, registrations refused, by why. */
  registrationsShown = 0;
  registrationValidationsRefused = 0;
  registrationsRefused = { "line-limit": 0, "in-person": 0 };
  /** 429 answers the store owed: /registro-de-linea once the online path ended for a number. */
  expectedTooManyRequests = 0;
  /** `npm run ops -- consumo` calls that did not end with exit code 0, with what they said. */
  usageFailures = [];

  #route(route) {
    let entry = this.routes.get(route);
    if (!entry) {
      entry = { requests: 0, statuses: new Map(), latencies: [] };
      this.routes.set(route, entry);
    }
    return entry;
  }

  recordResponse(response, latencyMs) {
    this.requests += 1;
    this.latencies.push(latencyMs);
    this.statusCounts.set(response.status, (this.statusCounts.get(response.status) ?? 0) + 1);
    const route = this.#route(response.route);
    route.requests += 1;
    route.latencies.push(latencyMs);
    route.statuses.set(response.status, (route.statuses.get(response.status) ?? 0) + 1);
    if (response.status >= 500) {
      this.serverErrorCount += 1;
      if (this.serverErrors.length < MAX_DETAILS) {
        this.serverErrors.push({
          method: response.method,
          path: response.path,
          status: response.status,
          requestId: response.requestId,
          said: alertText(response.body),
        });
      }
    }
  }

  recordNetworkError(route, path, error) {
    this.networkErrorCount += 1;
    this.#route(route);
    if (this.networkErrors.length < MAX_DETAILS) {
      this.networkErrors.push({ route, path, error: error?.message ?? String(error) });
    }
  }

  #journey(kind) {
    let entry = this.journeys.get(kind);
    if (!entry) {
      entry = { started: 0, completed: 0, failed: 0, aborted: 0 };
      this.journeys.set(kind, entry);
    }
    return entry;
  }

  journeyStarted(kind) {
    this.#journey(kind).started += 1;
  }

  journeyCompleted(kind) {
    this.#journey(kind).completed += 1;
  }

  /** Still under way when the soak stopped waiting; not a failure of the store. */
  journeyAborted(kind) {
    this.#journey(kind).aborted += 1;
  }

  journeyFailed(kind, journey, error) {
    this.#journey(kind).failed += 1;
    if (this.journeyFailures.length < MAX_DETAILS) {
      const response = error?.response;
      this.journeyFailures.push({
        journey,
        error: error?.message ?? String(error),
        requestId: response?.requestId ?? null,
        said: response ? alertText(response.body) : null,
      });
    }
  }

  doubleSubmitted() {
    this.doubleSubmissions += 1;
  }

  lineViewed() {
    this.lineViews += 1;
  }

  balanceShown() {
    this.balanceViews += 1;
  }

  registrationShown() {
    this.registrationsShown += 1;
  }

  registrationValidationRefused() {
    this.registrationValidationsRefused += 1;
  }

  inPersonAnswered() {
    this.expectedTooManyRequests += 1;
  }

  registrationRefused(why) {
    this.registrationsRefused[why] += 1;
  }
}

/** The value below which `fraction` of the sorted values fall (nearest rank). */
export function percentile(values, fraction) {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank];
}
