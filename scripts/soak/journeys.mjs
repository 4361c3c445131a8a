// The simulated customers' journeys, each as a customer without JavaScript walks it: read the
// page, post its form, follow the redirect. What every page told the customer (folios, order
// references, amounts, statuses) goes to the ledger the reconciliation checks afterwards.
import {
  CARRIERS,
  TOPUP_AMOUNTS,
  cardForm,
  chance,
  checkoutForm,
  HOLDERS_PER_CUSTOMER,
  invoiceForm,
  mismatchedName,
  pick,
  portabilityNumber,
  registrationHolder,
  registrationNumber,
  spacedNumber,
  topupLines,
  validCurp,
  validIccid,
} from "./customer-data.mjs";
import { CustomerBrowser, HttpError, expectRedirect, expectStatus } from "./http-client.mjs";
import {
  cartLines,
  hasTestId,
  inputValue,
  inputValues,
  parseMoney,
  planIds,
  testIdContent,
  testIdHref,
  testIdText,
} from "./pages.mjs";

/** How often a journey submits its form twice, as an impatient customer does. */
const DOUBLE_SUBMIT_PROBABILITY = 0.2;
/** How often a portability customer, already served, files again for the same number. */
const REPEAT_PORTABILITY_PROBABILITY = 0.05;
/** Think time between two requests of a customer: zero to a few milliseconds. */
const MAX_THINK_MS = 5;
/** The cart is kept small, as real ones are: above this many items, journeys take some out. */
const CART_ITEMS_SOFT_LIMIT = 6;

/** How customers pay an order or a top-up: card half the time, cash or SPEI a quarter each. */
const PAYMENT_METHOD_WEIGHTS = [
  ["card", 50],
  ["cash", 25],
  ["spei", 25],
];
/** A voucher or transfer the customer neither pays nor lets expire: it stays pending. */
const UNPAID_VOUCHER_PROBABILITY = 0.1;
/** Of the vouchers and transfers taken to the simulator, those paid; the others expire. */
const VOUCHER_PAID_PROBABILITY = 0.7;
/**
 * After the voucher of a top-up expired, how often the customer goes back and sends the same
 * form again: it must lead to that top-up, still cancelled, with nothing new to pay. (A checkout
 * form sent again after its order was cancelled is the next checkout of the same cart, which
 * customers make anyway: a new order.)
 */
const RESEND_EXPIRED_TOPUP_PROBABILITY = 0.3;
/** What a voucher (cash) or a transfer (SPEI) shows, as the e2e tests check it too. */
const INSTRUCTION_FORMATS = {
  cash: { reference: /^\d{14}$/ },
  spei: { reference: /^\d{7}$/, clabe: /^\d{18}$/ },
};
const ORDER_PAGE = /^\/confirmation\?pedido=/;
/** Every top-up's receipt is at its unguessable id, with or without an account. */
const TOPUP_RECEIPT = /^\/recarga\/[\w-]{22}$/;
/** Of the top-ups, those made on the public page (signed in or not) rather than in the account. */
const PUBLIC_TOPUP_PROBABILITY = 0.5;
/** Of the checkouts whose plans all come as eSIM, those that choose it. */
const ESIM_PROBABILITY = 0.3;
const SANDBOX_PAGE = /^\/sandbox\/pago\/chk_/;

/** Of the paid eSIM orders, those whose customer has the sandbox install them (a line is born). */
const INSTALL_PROBABILITY = 0.6;
/** Of the paid orders, those whose holder shows their identification (decision 0139). */
const HOLDER_PROOF_PROBABILITY = 0.7;
/** Of the paid top-ups, those whose customer opens the receipt again until it shows them applied. */
const WATCH_APPLICATION_PROBABILITY = 0.3;
/** Of the paid orders and top-ups, those whose customer asks for their invoice (CFDI). */
const INVOICE_PROBABILITY = 0.3;
const APPLICATION_STATES = {
  applied: "Aplicada a tu línea",
  pending: "Se está aplicando a tu línea",
  refused: "No pudimos aplicar esta recarga a tu línea",
};
const LINES_PAGE = "/my-account/lineas";
/** What the automatic top-up's page says once it is on (public/locales/es/topup.json). */
const AUTO_TOPUP_ON = "Listo: tu recarga automática está activa.";
/** The triggers a customer picks; a line without a package is charged at once under either. */
const AUTO_TOPUP_WHEN = ["vence", "datos-1024", "datos-2048"];
const BALANCE_PAGE = "/saldo";
const REGISTRATION_PAGE = "/registro-de-linea";

/**
 * One customer in COLLECTOR_EVERY registers lines to their own CURP until the store refuses one:
 * the 11th must be refused, telling neither how many lines the CURP holds nor which (0136).
 */
const COLLECTOR_EVERY = 40;
const COLLECTOR_OFFSET = 3;
const LINE_LIMIT = 10;
const LINE_LIMIT_MESSAGE = "Esta CURP no puede registrar más líneas en línea.";

/** What online registration asks besides the holder (decision 0136): the INE's CIC and two photos. */
const INE_CIC = "123456789";
const ID_PHOTO = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x69, 0x6e, 0x65]);
const SELFIE = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x73, 0x65, 0x6c, 0x66]);

/** The holder's form as the page sends it: multipart, with the photo of the INE and a selfie. */
function withPhotos(fields) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append("id_photo", new Blob([ID_PHOTO], { type: "image/jpeg" }), "ine.jpg");
  form.append("selfie", new Blob([SELFIE], { type: "image/jpeg" }), "selfie.jpg");
  return form;
}
const IN_PERSON_MESSAGE = "Termina el registro en una tienda";
/** Of the other registrations, those that take over a line another customer registered. */
const REPLACEMENT_PROBABILITY = 0.25;
/** Those that fail the identity validation once (the name is not the CURP's) before the right one. */
const ONE_FAILURE_PROBABILITY = 0.2;
/** Those that fail it three times: the online path ends for that number, even with the right holder. */
const ENDED_PROBABILITY = 0.04;
/** Those that ask for the folio by e-mail. */
const REGISTRATION_EMAIL_PROBABILITY = 0.3;
/**
 * Numbers a customer is taking over right now: one at a time each, so that the SMS code a customer
 * reads is the one sent to their own browser.
 */
const takingOver = new Set();

const JOURNEY_WEIGHTS = [
  ["browse", 22],
  ["cart", 18],
  ["checkout", 18],
  ["signIn", 8],
  ["topup", 15],
  ["portability", 8],
  ["line", 7],
  ["balance", 4],
  ["register", 5],
  ["autoTopup", 4],
];
export const JOURNEY_KINDS = JOURNEY_WEIGHTS.map(([kind]) => kind);

/** One of the weighted choices, at random. */
function weighted(choices) {
  let roll = Math.random() * choices.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [choice, weight] of choices) {
    roll -= weight;
    if (roll < 0) return choice;
  }
  return choices[0][0];
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const think = () => sleep(Math.floor(Math.random() * (MAX_THINK_MS + 1)));

/** What is left of a cart after one action (app/cart/cart.ts's rules, for checking the page). */
function applyCartIntent(lines, intent, id) {
  const next = new Map(lines);
  const quantity = next.get(id) ?? 0;
  if (intent === "add" || intent === "increment") {
    if (intent === "add" || quantity > 0) next.set(id, quantity + 1);
  } else if (intent === "decrement") {
    if (quantity > 1) next.set(id, quantity - 1);
    else next.delete(id);
  } else if (intent === "remove") {
    next.delete(id);
  }
  return next;
}

const sameCart = (left, right) =>
  left.size === right.size && [...left].every(([id, quantity]) => right.get(id) === quantity);
const describeCart = (lines) =>
  JSON.stringify(Object.fromEntries([...lines].sort(([a], [b]) => a.localeCompare(b))));

/**
 * The Locations of a submission's answers, all of which must redirect to `pattern`. The ledger
 * entry counts as told as soon as one answer named the result, even if the other then failed.
 */
function toldBy(told, answers, pattern) {
  if (answers.some((answer) => answer.location && pattern.test(answer.location))) {
    told.outcome = "told";
  }
  return answers.map((answer) => expectRedirect(answer, pattern));
}

/**
 * What a voucher or transfer on the store's page shows, into the ledger (the reference, the
 * CLABE of a transfer, the amount); throws when the page shows no instructions of the method
 * chosen, or no way to the sandbox's simulator.
 */
function readInstructions(page, told, journey) {
  const { method } = told;
  if (!hasTestId(page.body, `payment-instructions-${method}`)) {
    throw new HttpError(`${journey}: ${page.path} shows no ${method} payment instructions`, page);
  }
  const shown = {
    method,
    reference: testIdText(page.body, "payment-reference"),
    clabe:
      method === "spei"
        ? (testIdText(page.body, "payment-clabe")?.replace(/\s/g, "") ?? null)
        : null,
  };
  told.instructionsShown.push(shown);
  told.amountsShown.push(parseMoney(testIdText(page.body, "payment-amount")));
  for (const [field, format] of Object.entries(INSTRUCTION_FORMATS[method])) {
    if (!format.test(shown[field] ?? "")) {
      told.problems.push(`the ${method} instructions show ${field} "${shown[field] ?? ""}"`);
    }
  }
  const simulatorPath = testIdHref(page.body, "payment-simulator");
  if (!simulatorPath || !SANDBOX_PAGE.test(simulatorPath)) {
    throw new HttpError(`${journey}: ${page.path} has no link to the payment simulator`, page);
  }
  return { ...shown, simulatorPath };
}

/** A line's figures as the simulated BSS always answers them: the line active, no "unavailable". */
function expectLineFigures(journey, page) {
  if (!hasTestId(page.body, "line-figures") || hasTestId(page.body, "line-unavailable")) {
    throw new HttpError(`${journey}: ${page.path} shows no figures of the line`, page);
  }
  const status = testIdText(page.body, "line-status");
  if (status !== "Activa") {
    throw new HttpError(`${journey}: ${page.path} shows the line as "${status}"`, page);
  }
}

const describeShown = (shown) =>
  shown.clabe ? `${shown.reference} to CLABE ${shown.clabe}` : String(shown.reference);

export class SimulatedCustomer {
  constructor({ index, account, origin, recorder, stopSignal, codeSentTo }) {
    this.index = index;
    this.origin = origin;
    /** Reads the code an SMS brought to a line's phone (scripts/soak/sms.mjs). */
    this.codeSentTo = codeSentTo;
    /** This customer's lines in their account, added with a code. */
    this.addedLines = new Set();
    this.account = account;
    this.recorder = recorder;
    this.stopSignal = stopSignal;
    this.browser = new CustomerBrowser({ origin, recorder, stopSignal });
    this.journeySerial = 0;
    this.portabilitySerial = 0;
    this.plans = null;
    this.lines = topupLines(index);
    /** Numbers this customer has an open portability request for (a repeat gets a 409). */
    this.portedNumbers = [];
    /** The holder this customer registers lines to (their own CURP), and the numbers so far. */
    this.holder = registrationHolder(index, 0);
    this.registrationSerial = 0;
    /** Numbers this customer registered to their own CURP (told the folio). */
    this.registeredNumbers = [];
    this.collector = index % COLLECTOR_EVERY === COLLECTOR_OFFSET;
    this.limitRefused = false;
    /** Whether this customer saved a card (a top-up paid by card with the box ticked). */
    this.savedCard = false;
  }

  /** Signed in as a browser knows it: the session cookie is there (it may be in chunks). */
  get signedIn() {
    return this.browser.jar.hasPrefix("__Host-auth_session");
  }

  /**
   * Journey after journey until `deadline` (epoch ms, or a function that answers it: a load that
   * ends once something has happened); the journey under way is always finished.
   */
  async run(deadline) {
    const until = typeof deadline === "function" ? deadline : () => deadline;
    while (Date.now() < until() && !this.stopSignal.aborted) {
      // A collector registers their lines first, until the store refuses the 11th.
      const kind = this.collector && !this.limitRefused ? "register" : weighted(JOURNEY_WEIGHTS);
      const journey = `customer ${this.index} journey ${++this.journeySerial} (${kind})`;
      this.recorder.journeyStarted(kind);
      try {
        await this[kind](journey);
        this.recorder.journeyCompleted(kind);
      } catch (error) {
        if (this.stopSignal.aborted) this.recorder.journeyAborted(kind);
        else this.recorder.journeyFailed(kind, journey, error);
      }
      await think();
    }
  }

  async get(path) {
    await think();
    return this.browser.get(path);
  }

  /**
   * Posts a form once, or, for an impatient customer, twice with the same fields (so with the
   * same idempotency key): either both at once (a double click) or one right after the other (a
   * resubmission). Returns every answer; the browser shows the last one.
   */
  async submit(path, form, { mayDouble = true } = {}) {
    await think();
    if (!mayDouble || !chance(DOUBLE_SUBMIT_PROBABILITY)) {
      return [await this.browser.post(path, form)];
    }
    this.recorder.doubleSubmitted();
    if (chance(0.5)) {
      return Promise.all([this.browser.post(path, form), this.browser.post(path, form)]);
    }
    const first = await this.browser.post(path, form);
    return [first, await this.browser.post(path, form)];
  }

  async ensurePlans() {
    if (!this.plans) {
      const page = expectStatus(await this.get("/plans"), 200);
      this.plans = planIds(page.body);
      if (this.plans.length === 0) throw new Error("/plans shows no plan to add");
    }
    return this.plans;
  }

  async browse() {
    const pages = ["/", "/plans", "/help-center?q=recarga"];
    for (const path of pages.filter(() => chance(0.7))) {
      expectStatus(await this.get(path), 200);
    }
  }

  /** Adds, increments, decrements or removes, checking the cart page after each change. */
  async cart(journey) {
    const plans = await this.ensurePlans();
    let lines = cartLines(expectStatus(await this.get("/cart"), 200).body);
    const changes = 1 + Math.floor(Math.random() * 3);
    for (let change = 0; change < changes; change++) {
      const count = [...lines.values()].reduce((sum, quantity) => sum + quantity, 0);
      const inCart = [...lines.keys()];
      let intent;
      if (inCart.length === 0) intent = "add";
      else if (count > CART_ITEMS_SOFT_LIMIT) intent = pick(["decrement", "remove"]);
      else intent = pick(["add", "add", "increment", "decrement", "remove"]);
      const id = intent === "add" ? pick(plans) : pick(inCart);
      const answers = await this.submit("/cart", { intent, id });
      for (const answer of answers) expectRedirect(answer, /^\/cart$/);
      const page = expectStatus(await this.browser.follow(answers.at(-1)), 200);
      const shown = cartLines(page.body);
      const once = applyCartIntent(lines, intent, id);
      // Two posts at once both start from the same cart cookie, so the later answer's cookie
      // holds one change; one after the other, both changes apply. Either is right.
      const acceptable = [once];
      if (answers.length === 2) acceptable.push(applyCartIntent(once, intent, id));
      if (!acceptable.some((expected) => sameCart(expected, shown))) {
        throw new Error(
          `${journey}: after ${intent} ${id} the cart shows ${describeCart(shown)}, expected ${acceptable.map(describeCart).join(" or ")}`,
        );
      }
      lines = shown;
    }
  }

  /**
   * Cart → checkout form → by card: the sandbox's payment page with the approved card; by cash
   * or SPEI: the order's page with the voucher or transfer, then (mostly) the simulator →
   * the order's page.
   */
  async checkout(journey) {
    const plans = await this.ensurePlans();
    let checkoutPage = await this.get("/checkout");
    if (checkoutPage.status === 303) {
      // An empty cart sends the customer back to it: put a plan in first.
      const added = await this.submit(
        "/cart",
        { intent: "add", id: pick(plans) },
        { mayDouble: false },
      );
      expectRedirect(added[0], /^\/cart$/);
      expectStatus(await this.browser.follow(added[0]), 200);
      checkoutPage = await this.get("/checkout");
    }
    expectStatus(checkoutPage, 200);
    // A cart that mixes eSIM-only and physical-only plans is told to order them apart: the
    // customer takes plans out until one SIM type fits them all.
    for (let tries = 0; /data-testid="sim-type-mixed"/.test(checkoutPage.body); tries++) {
      if (tries === 10) throw new Error(`${journey}: the cart never fitted one SIM type`);
      const inCart = [...cartLines(expectStatus(await this.get("/cart"), 200).body).keys()];
      const removed = await this.submit(
        "/cart",
        { intent: "remove", id: pick(inCart) },
        { mayDouble: false },
      );
      expectRedirect(removed[0], /^\/cart$/);
      checkoutPage = await this.get("/checkout");
      if (checkoutPage.status === 303) return this.checkout(journey);
      expectStatus(checkoutPage, 200);
    }
    const simTypes = inputValues(checkoutPage.body, "sim_type");
    const simType =
      simTypes.includes("esim") && (simTypes.length === 1 || chance(ESIM_PROBABILITY))
        ? "esim"
        : "physical";
    const idempotencyKey = inputValue(checkoutPage.body, "idempotency_key");
    if (!idempotencyKey) throw new Error(`${journey}: the checkout form has no idempotency key`);
    const method = weighted(PAYMENT_METHOD_WEIGHTS);
    const told = this.recorder.ledger.order({ journey, idempotencyKey, method });
    told.amountsShown.push(parseMoney(testIdText(checkoutPage.body, "checkout-total")));

    const email = `${this.account.email.replace("@", `+${this.journeySerial}@`)}`;
    // The lines' holder (issue 27): the customer themself, so a collector's own purchases count
    // towards their CURP's 10 lines as the registrations do.
    const answers = await this.submit("/checkout", {
      ...checkoutForm(email, idempotencyKey),
      "holder.holder_kind": "fisica",
      "holder.full_name": this.holder.fullName,
      "holder.curp": this.holder.curp,
      "holder.identification_type": "ine",
      sim_type: simType,
      payment_method: method,
    });
    let result;
    if (method === "card") {
      const paymentPages = toldBy(told, answers, SANDBOX_PAGE);
      if (new Set(paymentPages).size > 1) {
        told.problems.push(
          `one checkout form led to two payment pages: ${paymentPages.join(", ")}`,
        );
      }
      result = await this.payByCard(paymentPages.at(-1), told, ORDER_PAGE);
    } else {
      // A voucher or transfer is shown on the order's own page, straight away.
      const orderPages = toldBy(told, answers, ORDER_PAGE);
      if (new Set(orderPages).size > 1) {
        told.problems.push(`one checkout form led to two orders: ${orderPages.join(", ")}`);
      }
      const voucherPage = expectStatus(await this.browser.follow(answers.at(-1)), 200);
      told.folios.push(testIdText(voucherPage.body, "order-folio"));
      told.amountsShown.push(parseMoney(testIdText(voucherPage.body, "order-total")));
      result = await this.payVoucher(voucherPage, told, ORDER_PAGE, journey);
      result.locations.unshift(...orderPages);
    }
    for (const location of result.locations) {
      told.refs.push(new URL(location, "http://x").searchParams.get("pedido"));
    }
    const page = result.page;
    told.folios.push(testIdText(page.body, "order-folio"));
    told.amountsShown.push(parseMoney(testIdText(page.body, "order-total")));
    told.shownStatus = testIdText(page.body, "order-status");
    told.shownPaid = told.shownStatus === "Pagado";
    told.shownCancelled = told.shownStatus === "Cancelado";
    // The order's own SIM type: a form sent again for an unpaid order resumes it as it was placed.
    const orderIsEsim = testIdContent(page.body, "order-sim-type")?.endsWith("eSIM") === true;
    if (told.shownPaid && orderIsEsim && !/data-testid="esim-activation"/.test(page.body)) {
      told.problems.push("a paid eSIM order's page shows no activation code");
    }
    if (told.shownPaid && chance(HOLDER_PROOF_PROBABILITY)) {
      await this.proveHolder(journey, told.refs.at(-1));
    }
    if (told.shownPaid && orderIsEsim && chance(INSTALL_PROBABILITY)) {
      await this.installEsims(journey, page);
    }
    if (told.shownPaid && chance(INVOICE_PROBABILITY)) {
      await this.invoice(journey, "order", told.refs.at(-1), method);
    }
    // Once paid, the confirmation empties the cart; the next checkout starts a new one. Unpaid or
    // cancelled, the cart stays: the next checkout of the same cart resumes that order, or, once
    // cancelled, places it again as a new one.
  }

  /**
   * Pays on the sandbox's page with the approved card (sometimes twice, as an impatient
   * customer), then follows the provider back to the store's page.
   */
  async payByCard(paymentPage, told, returnPattern) {
    const page = expectStatus(await this.get(paymentPage), 200);
    told.amountsShown.push(parseMoney(testIdText(page.body, "sandbox-amount")));
    const answers = await this.submit(paymentPage, cardForm());
    const locations = answers.map((answer) => expectRedirect(answer, returnPattern));
    told.providerConfirmedPaid = true;
    const landing = expectStatus(await this.browser.follow(answers.at(-1)), 200);
    return { locations, page: landing };
  }

  /**
   * A voucher or transfer on the store's page: most customers take it to the sandbox's simulator,
   * which pays it (at a store, at the bank) or lets it expire, sometimes submitted twice; the
   * others leave it unpaid and find the same one when they come back to the page.
   */
  async payVoucher(voucherPage, told, returnPattern, journey) {
    const shown = readInstructions(voucherPage, told, journey);
    if (chance(UNPAID_VOUCHER_PROBABILITY)) {
      told.voucherOutcome = "unpaid";
      const again = expectStatus(await this.get(voucherPage.path), 200);
      const shownAgain = readInstructions(again, told, journey);
      if (shownAgain.reference !== shown.reference || shownAgain.clabe !== shown.clabe) {
        told.problems.push(
          `the page showed ${describeShown(shown)}, then ${describeShown(shownAgain)} for the same payment`,
        );
      }
      return { locations: [], page: again };
    }
    const simulator = expectStatus(await this.get(shown.simulatorPath), 200);
    told.amountsShown.push(parseMoney(testIdText(simulator.body, "sandbox-amount")));
    const atProvider = {
      reference: testIdText(simulator.body, "sandbox-reference"),
      clabe: testIdText(simulator.body, "sandbox-clabe")?.replace(/\s/g, "") ?? null,
    };
    if (atProvider.reference !== shown.reference || atProvider.clabe !== shown.clabe) {
      told.problems.push(
        `the store showed ${describeShown(shown)}, the provider's simulator ${describeShown(atProvider)}`,
      );
    }
    const intent = chance(VOUCHER_PAID_PROBABILITY) ? "paid" : "expired";
    told.voucherOutcome = intent;
    const answers = await this.submit(shown.simulatorPath, { intent });
    const locations = answers.map((answer) => expectRedirect(answer, returnPattern));
    if (intent === "paid") told.providerConfirmedPaid = true;
    else told.providerConfirmedExpired = true;
    const landing = expectStatus(await this.browser.follow(answers.at(-1)), 200);
    return { locations, page: landing };
  }

  async signIn() {
    if (this.signedIn) {
      await think();
      const out = await this.browser.post("/auth/sign-out", {});
      expectRedirect(out, /^\/$/);
      expectStatus(await this.browser.follow(out), 200);
    }
    expectStatus(await this.get("/auth/sign-in"), 200);
    await this.signInWithForm();
  }

  async signInWithForm(redirectTo) {
    const form = { username: this.account.email, password: this.account.password };
    if (redirectTo) form.redirectTo = redirectTo;
    const answers = await this.submit("/auth/sign-in", form);
    // Without a page to come back to, the customer lands on their account.
    for (const answer of answers) expectRedirect(answer, /^\/my-account/);
    const landing = await this.browser.follow(answers.at(-1));
    expectStatus(landing, 200);
    expectStatus(await this.get("/my-account"), 200);
  }

  /**
   * The top-up form (the public /recarga, signed in or not, or the account's), the sandbox payment
   * (card) or the voucher (cash, SPEI), the receipt at its unguessable address.
   */
  async topup(journey, { saveCard = false } = {}) {
    // Saving a card: in the account, by card, the box ticked (decision 0119).
    const formPath =
      saveCard || !chance(PUBLIC_TOPUP_PROBABILITY) ? "/my-account/recarga" : "/recarga";
    let form = await this.get(formPath);
    if (form.status === 303) {
      // Not signed in (or the session ended): the account's page sends the customer to sign in.
      expectRedirect(form, /^\/auth\/sign-in/);
      await this.signInWithForm(formPath);
      form = await this.get(formPath);
    }
    expectStatus(form, 200);
    const idempotencyKey = inputValue(form.body, "idempotency_key");
    if (!idempotencyKey) throw new Error(`${journey}: the top-up form has no idempotency key`);
    const savedLines = inputValues(form.body, "saved_line").filter((value) =>
      /^\d{10}$/.test(value),
    );
    const phoneNumber = pick(this.lines);
    const amount = pick(TOPUP_AMOUNTS);
    const method = saveCard ? "card" : weighted(PAYMENT_METHOD_WEIGHTS);
    const fields = {
      amount: String(amount),
      idempotency_key: idempotencyKey,
      payment_method: method,
      ...(saveCard ? { save_card: "on" } : {}),
    };
    // Without an account the form asks for an optional e-mail for the receipt.
    if (/name="email"/.test(form.body) && chance(0.5)) fields.email = this.account.email;
    if (savedLines.includes(phoneNumber) && chance(0.5)) {
      // One tap on a line topped up before.
      Object.assign(fields, {
        saved_line: phoneNumber,
        phone_number: "",
        phone_number_confirm: "",
      });
    } else {
      const typed = `${phoneNumber.slice(0, 2)} ${phoneNumber.slice(2, 6)} ${phoneNumber.slice(6)}`;
      if (savedLines.length > 0) fields.saved_line = "otro";
      Object.assign(fields, { phone_number: typed, phone_number_confirm: phoneNumber });
    }
    const told = this.recorder.ledger.topup({
      journey,
      idempotencyKey,
      phoneNumber,
      amount,
      method,
    });
    const answers = await this.submit(formPath, fields);
    let receipt;
    if (method === "card") {
      const paymentPages = toldBy(told, answers, SANDBOX_PAGE);
      if (new Set(paymentPages).size > 1) {
        told.problems.push(`one top-up form led to two payment pages: ${paymentPages.join(", ")}`);
      }
      receipt = await this.payByCard(paymentPages.at(-1), told, TOPUP_RECEIPT);
    } else {
      // A voucher or transfer is shown on the top-up's receipt, straight away.
      const receipts = toldBy(told, answers, TOPUP_RECEIPT);
      if (new Set(receipts).size > 1) {
        told.problems.push(`one top-up form led to two top-ups: ${receipts.join(", ")}`);
      }
      const voucherPage = expectStatus(await this.browser.follow(answers.at(-1)), 200);
      told.folios.push(testIdText(voucherPage.body, "topup-folio"));
      told.amountsShown.push(parseMoney(testIdText(voucherPage.body, "topup-amount")));
      receipt = await this.payVoucher(voucherPage, told, TOPUP_RECEIPT, journey);
      receipt.locations.unshift(...receipts);
    }
    for (const location of receipt.locations) {
      told.refs.push(decodeURIComponent(location.split("/").at(-1)));
    }
    told.folios.push(testIdText(receipt.page.body, "topup-folio"));
    told.amountsShown.push(parseMoney(testIdText(receipt.page.body, "topup-amount")));
    told.shownStatus = testIdText(receipt.page.body, "topup-status");
    told.shownPaid = told.shownStatus === "Pagada";
    told.shownCancelled = told.shownStatus === "Cancelada";
    if (told.shownPaid && chance(WATCH_APPLICATION_PROBABILITY)) {
      await this.watchApplication(receipt.page, told);
    }
    if (told.shownPaid && chance(INVOICE_PROBABILITY)) {
      await this.invoice(journey, "topup", told.refs.at(-1), method);
    }

    if (told.providerConfirmedExpired && chance(RESEND_EXPIRED_TOPUP_PROBABILITY)) {
      // The back button, and the same form sent again: the same top-up's receipt, cancelled.
      const [again] = await this.submit(formPath, fields, { mayDouble: false });
      const location = expectRedirect(again, TOPUP_RECEIPT);
      told.refs.push(decodeURIComponent(location.split("/").at(-1)));
      const page = expectStatus(await this.browser.follow(again), 200);
      told.folios.push(testIdText(page.body, "topup-folio"));
      told.shownStatus = testIdText(page.body, "topup-status");
      told.shownPaid = told.shownStatus === "Pagada";
      told.shownCancelled = told.shownStatus === "Cancelada";
    }
  }

  /**
   * An automatic top-up for one of this customer's lines (issue 29): a card saved first (a
   * top-up paid by card with the box ticked), then the line's automatic top-up switched on with it.
   * The scheduler charges it (every 2 s in the soak) when the line has no package or runs low;
   * the operator's usage drives lines down meanwhile.
   */
  async autoTopup(journey) {
    if (this.addedLines.size === 0) return this.line(journey);
    if (!this.savedCard) {
      await this.topup(journey, { saveCard: true });
      this.savedCard = this.recorder.ledger.topups.at(-1)?.shownPaid === true;
      if (!this.savedCard) return;
    }
    const number = pick([...this.addedLines]);
    const path = `${LINES_PAGE}/${number}/recarga-automatica`;
    let page = await this.get(path);
    if (page.status === 303) {
      expectRedirect(page, /^\/auth\/sign-in/);
      await this.signInWithForm(path);
      page = await this.get(path);
    }
    expectStatus(page, 200);
    const cards = inputValues(page.body, "tarjeta");
    if (cards.length === 0) throw new HttpError(`${journey}: a saved card, but none offered`, page);
    const told = this.recorder.ledger.autoTopup({ journey, customer: this.index, number });
    const answers = await this.submit(path, {
      intent: "activar",
      amount: "150",
      cuando: pick(AUTO_TOPUP_WHEN),
      tope: "2",
      tarjeta: pick(cards),
    });
    for (const answer of answers) expectRedirect(answer, new RegExp(`^${path}$`));
    const settings = expectStatus(await this.browser.follow(answers.at(-1)), 200);
    if (!settings.body.includes(AUTO_TOPUP_ON)) {
      throw new HttpError(`${journey}: the automatic top-up was not said to be on`, settings);
    }
    told.outcome = "told";
  }

  /**
   * Asks for a paid order's or top-up's invoice at /facturacion, as a persona moral (the sandbox
   * does not compare a company's name), once or, an impatient customer, twice at once or in a
   * row; every UUID the pages showed is recorded: one payment, one invoice, one UUID.
   */
  async invoice(journey, kind, ref, method) {
    const path = `/facturacion?${kind === "order" ? "pedido" : "recarga"}=${encodeURIComponent(ref)}`;
    const told = this.recorder.ledger.invoice({ journey, kind, ref });
    const form = expectStatus(await this.get(path), 200);
    if (!hasTestId(form.body, "invoice") && !/name="rfc"/.test(form.body)) {
      throw new HttpError(`${journey}: /facturacion shows neither a form nor an invoice`, form);
    }
    const fields = {
      ...invoiceForm(`factura.${this.index}@example.com`),
      ...(method === "card" ? { tarjeta: chance(0.5) ? "credito" : "debito" } : {}),
    };
    const answers = await this.submit(path, fields);
    for (const answer of answers) {
      const page =
        answer.status === 200 ? answer : expectStatus(await this.browser.follow(answer), 200);
      const uuid = testIdContent(page.body, "invoice-uuid");
      if (uuid) told.uuids.push(uuid);
      else told.problems.push(`${path} answered ${answer.status} without an invoice`);
    }
    told.outcome = told.uuids.length > 0 ? "told" : "unknown";
    this.recorder.invoiceShown();
  }

  /**
   * The holder named at checkout shows their INE, a photo of it and a selfie (decision 0139): back
   * on the order's page, which then says the identity is confirmed.
   */
  async proveHolder(journey, orderRef) {
    const path = `/pedido/titular?pedido=${encodeURIComponent(orderRef)}`;
    const form = expectStatus(await this.get(path), 200);
    if (!hasTestId(form.body, "holder-proof-form")) {
      throw new HttpError(`${journey}: the holder's proof page shows no form`, form);
    }
    const [answer] = await this.submit(
      path,
      withPhotos({
        identification_type: "ine",
        document_number: INE_CIC,
        idempotency_key: inputValue(form.body, "idempotency_key") ?? "",
      }),
      { mayDouble: false },
    );
    expectRedirect(answer, ORDER_PAGE);
    const after = expectStatus(await this.browser.follow(answer), 200);
    if (!/data-testid="holder-proof-notice" data-state="proved"/.test(after.body)) {
      throw new HttpError(`${journey}: the order's page does not say the holder is proved`, after);
    }
  }

  /**
   * "Simular instalación" for every eSIM of a paid order's page, as the phone that scans its code
   * would: the store queues the line's activation. Recorded as told once the page shows it installed.
   */
  async installEsims(journey, page) {
    const orderRef = new URL(page.path, "http://x").searchParams.get("pedido");
    const positions = [...new Set(inputValues(page.body, "position"))];
    for (const position of positions) {
      const told = this.recorder.ledger.install({ journey, orderRef, position: Number(position) });
      const [answer] = await this.submit(
        page.path,
        { intent: "simulate-esim-install", position },
        { mayDouble: false },
      );
      expectRedirect(answer, ORDER_PAGE);
      const after = expectStatus(await this.browser.follow(answer), 200);
      if (!hasTestId(after.body, "esim-installed")) {
        throw new HttpError(`${journey}: the order's page does not show the eSIM installed`, after);
      }
      told.outcome = "told";
    }
  }

  /**
   * The receipt looked at again, as a customer refreshes it, until it says the top-up reached the
   * line (the line-jobs worker applies it a moment after the payment).
   */
  async watchApplication(receipt, told) {
    let page = receipt;
    for (let look = 0; look < 20; look++) {
      const state = testIdText(page.body, "topup-application-state");
      if (state === APPLICATION_STATES.applied) {
        told.shownApplied = true;
        return;
      }
      if (state === APPLICATION_STATES.refused) {
        told.problems.push("the receipt says the paid top-up could not be applied");
        return;
      }
      if (state !== APPLICATION_STATES.pending) {
        told.problems.push(`the paid top-up's receipt shows "${state ?? "nothing"}" of its line`);
        return;
      }
      await sleep(250);
      page = expectStatus(await this.get(page.path), 200);
    }
  }

  /**
   * The account's lines: a line of this customer's added with the code sent to it by SMS (the
   * first time, and now and then another), then a line's own page with its figures.
   */
  async line(journey) {
    let list = await this.get(LINES_PAGE);
    if (list.status === 303) {
      expectRedirect(list, /^\/auth\/sign-in/);
      await this.signInWithForm(LINES_PAGE);
      list = await this.get(LINES_PAGE);
    }
    expectStatus(list, 200);
    const shown = new Set(
      [...list.body.matchAll(/data-testid="line-card" data-number="(\d{10})"/g)].map(
        (match) => match[1],
      ),
    );
    for (const number of this.addedLines) {
      if (!shown.has(number)) {
        throw new HttpError(`${journey}: ${number}, added before, is missing from the lines`, list);
      }
    }
    const notYet = this.lines.filter((number) => !this.addedLines.has(number));
    if (notYet.length > 0 && (this.addedLines.size === 0 || chance(0.3))) {
      await this.addLine(journey, pick(notYet), list);
    }
    if (this.addedLines.size === 0) return;
    const number = pick([...this.addedLines]);
    const page = expectStatus(await this.get(`${LINES_PAGE}/${number}`), 200);
    expectLineFigures(journey, page);
    this.recorder.lineViewed();
  }

  async addLine(journey, number, list) {
    const told = this.recorder.ledger.lineAdded({ journey, customer: this.index, number });
    const since = new Date();
    const [sent] = await this.submit(
      LINES_PAGE,
      {
        intent: "enviar-codigo",
        phone_number: number,
        idempotency_key: inputValue(list.body, "idempotency_key") ?? "",
      },
      { mayDouble: false },
    );
    expectRedirect(sent, /^\/my-account\/lineas$/);
    const codeForm = expectStatus(await this.browser.follow(sent), 200);
    const code = await this.codeSentTo(number, since);
    const [confirmed] = await this.submit(
      LINES_PAGE,
      {
        intent: "confirmar-codigo",
        code,
        phone_number: number,
        idempotency_key: inputValue(codeForm.body, "idempotency_key") ?? "",
      },
      { mayDouble: false },
    );
    expectRedirect(confirmed, new RegExp(`^/my-account/lineas/${number}$`));
    told.outcome = "told";
    this.addedLines.add(number);
  }

  /**
   * /saldo from a browser with no cookies: one of this customer's numbers, the code sent to it,
   * then the line's figures.
   */
  async balance(journey) {
    const browser = new CustomerBrowser({
      origin: this.origin,
      recorder: this.recorder,
      stopSignal: this.stopSignal,
    });
    const number = pick(this.lines);
    const form = expectStatus(await browser.get(BALANCE_PAGE), 200);
    const since = new Date();
    await think();
    const sent = await browser.post(BALANCE_PAGE, {
      intent: "enviar-codigo",
      phone_number: `${number.slice(0, 2)} ${number.slice(2, 6)} ${number.slice(6)}`,
      idempotency_key: inputValue(form.body, "idempotency_key") ?? "",
    });
    expectRedirect(sent, /^\/saldo$/);
    const codeForm = expectStatus(await browser.follow(sent), 200);
    const code = await this.codeSentTo(number, since);
    await think();
    const confirmed = await browser.post(BALANCE_PAGE, {
      intent: "confirmar-codigo",
      code,
      idempotency_key: inputValue(codeForm.body, "idempotency_key") ?? "",
    });
    expectRedirect(confirmed, /^\/saldo$/);
    expectLineFigures(journey, expectStatus(await browser.follow(confirmed), 200));
    this.recorder.balanceShown();
  }

  /**
   * /registro-de-linea from a phone with no cookies: a number of this customer's proved with the
   * code its SMS brought, then the holder. A collector registers lines to their CURP until the
   * 11th is refused; the others register a number of their own (now and then after a failed
   * validation, or three, which end the online path), or take over, as a relative, a line
   * another customer registered (the new registration replaces the old).
   */
  async register(journey) {
    if (this.collector) {
      await this.collectLines(journey);
      return;
    }
    // One phone of this customer's: the receipt of the last registration is still on it, and
    // "Registrar otra línea" starts the next.
    this.phone ??= new CustomerBrowser({
      origin: this.origin,
      recorder: this.recorder,
      stopSignal: this.stopSignal,
    });
    const browser = this.phone;
    const takeOver = this.registrationToTakeOver();
    if (takeOver && chance(REPLACEMENT_PROBABILITY)) {
      const relative = registrationHolder(
        this.index,
        1 + (this.journeySerial % (HOLDERS_PER_CUSTOMER - 1)),
      );
      takingOver.add(takeOver.number);
      try {
        await this.registerNumber(journey, browser, takeOver.number, relative, {
          expected: "told",
        });
      } finally {
        takingOver.delete(takeOver.number);
      }
      return;
    }
    const number = this.nextRegistrationNumber();
    if (chance(ENDED_PROBABILITY)) {
      await this.registerNumber(journey, browser, number, this.holder, {
        failures: 3,
        expected: "in-person",
      });
      return;
    }
    await this.registerNumber(journey, browser, number, this.holder, {
      failures: chance(ONE_FAILURE_PROBABILITY) ? 1 : 0,
      expected: "told",
    });
  }

  /**
   * A family registers its lines to one CURP. The first time, eleven at once, each from a phone of
   * its own: the store keeps ten and refuses one, whichever comes last, with the Spanish message
   * (the limit under concurrent registrations). Afterwards, or after a journey cut short, one
   * line after another from one phone until the 11th is refused.
   */
  async collectLines(journey) {
    const phone = () =>
      new CustomerBrowser({
        origin: this.origin,
        recorder: this.recorder,
        stopSignal: this.stopSignal,
      });
    if (this.registrationSerial === 0) {
      const numbers = Array.from({ length: LINE_LIMIT + 1 }, () => this.nextRegistrationNumber());
      const outcomes = await Promise.allSettled(
        numbers.map((number) =>
          this.registerNumber(journey, phone(), number, this.holder, { expected: "told-or-limit" }),
        ),
      );
      const failed = outcomes.find((outcome) => outcome.status === "rejected");
      if (failed) throw failed.reason;
      const refused = outcomes.filter((outcome) => outcome.value === "line-limit").length;
      if (refused !== 1 || this.registeredNumbers.length !== LINE_LIMIT) {
        throw new Error(
          `${journey}: of ${numbers.length} lines registered at once to one CURP, ${this.registeredNumbers.length} were registered and ${refused} refused`,
        );
      }
      this.limitRefused = true;
      return;
    }
    const browser = phone();
    do {
      const expected = this.registeredNumbers.length < LINE_LIMIT ? "told" : "line-limit";
      await this.registerNumber(journey, browser, this.nextRegistrationNumber(), this.holder, {
        expected,
      });
      if (expected === "line-limit") {
        this.limitRefused = true;
        return;
      }
    } while (!this.stopSignal.aborted);
  }

  nextRegistrationNumber() {
    return registrationNumber(this.index, this.registrationSerial++);
  }

  /** A line another (non-collecting) customer was told they registered, or null. */
  registrationToTakeOver() {
    const others = this.recorder.ledger.registration.registrations.filter(
      (told) =>
        told.outcome === "told" &&
        told.customer !== this.index &&
        !takingOver.has(told.number) &&
        told.customer % COLLECTOR_EVERY !== COLLECTOR_OFFSET,
    );
    return others.length > 0 ? pick(others) : null;
  }

  /**
   * One number registered: proved by its SMS code, `failures` validations refused (a name that is
   * not the CURP's), then the holder. `expected`: "told" (the folio), "line-limit" (409, the
   * holder's 10 lines), "told-or-limit" (either: registered at once with others) or "in-person"
   * (429, the online path ended). Answers which it was.
   */
  async registerNumber(journey, browser, number, holder, { failures = 0, expected }) {
    let page = await browser.get(REGISTRATION_PAGE);
    // The phone's last number may have ended its online path (429, where to go in person).
    if (page.status === 429) this.recorder.inPersonAnswered();
    else expectStatus(page, 200);
    if (page.status === 429 || hasTestId(page.body, "registration-folio")) {
      await think();
      const other = await browser.post(REGISTRATION_PAGE, { intent: "otro-numero" });
      expectRedirect(other, /^\/registro-de-linea$/);
      page = expectStatus(await browser.follow(other), 200);
    }
    const since = new Date();
    await think();
    const sent = await browser.post(REGISTRATION_PAGE, {
      intent: "enviar-codigo",
      phone_number: spacedNumber(number),
      idempotency_key: inputValue(page.body, "idempotency_key") ?? "",
    });
    expectRedirect(sent, /^\/registro-de-linea$/);
    const codeForm = expectStatus(await browser.follow(sent), 200);
    const code = await this.codeSentTo(number, since);
    await think();
    const confirmed = await browser.post(REGISTRATION_PAGE, {
      intent: "confirmar-codigo",
      code,
      idempotency_key: inputValue(codeForm.body, "idempotency_key") ?? "",
    });
    expectRedirect(confirmed, /^\/registro-de-linea$/);
    const holderForm = expectStatus(await browser.follow(confirmed), 200);
    if (!hasTestId(holderForm.body, "holder-form")) {
      throw new HttpError(`${journey}: ${number} proved, but no holder form`, holderForm);
    }
    const fields = {
      intent: "registrar",
      holder_kind: "fisica",
      full_name: holder.fullName,
      curp: holder.curp,
      identification_type: "ine",
      document_number: INE_CIC,
      idempotency_key: inputValue(holderForm.body, "idempotency_key") ?? "",
    };
    for (let failure = 1; failure <= failures; failure++) {
      await think();
      const refused = await browser.post(
        REGISTRATION_PAGE,
        withPhotos({ ...fields, full_name: mismatchedName(holder) }),
      );
      expectStatus(refused, failure < 3 ? 422 : 429);
      if (failure === 3) this.recorder.inPersonAnswered();
      this.recorder.registrationValidationRefused();
    }
    if (chance(REGISTRATION_EMAIL_PROBABILITY)) fields.email = this.account.email;
    const told = this.recorder.ledger.lineRegistration({
      journey,
      customer: this.index,
      number,
      holderName: holder.fullName,
      holderKeyMasked: holder.holderKeyMasked,
    });
    if (expected === "told") {
      await this.submitHolder(journey, browser, fields, told, holder);
      if (holder === this.holder) this.registeredNumbers.push(number);
      return "told";
    }
    await think();
    const answer = await browser.post(REGISTRATION_PAGE, withPhotos(fields));
    if (expected === "told-or-limit" && answer.status !== 409) {
      await this.submitHolder(journey, browser, fields, told, holder, [answer]);
      this.registeredNumbers.push(number);
      return "told";
    }
    const refusal = expected === "told-or-limit" ? "line-limit" : expected;
    if (refusal === "line-limit") {
      expectStatus(answer, 409);
      if (!answer.body.includes(LINE_LIMIT_MESSAGE)) {
        throw new HttpError(
          `${journey}: the 11th line was refused without the Spanish message`,
          answer,
        );
      }
    } else {
      expectStatus(answer, 429);
      this.recorder.inPersonAnswered();
      if (!answer.body.includes(IN_PERSON_MESSAGE)) {
        throw new HttpError(`${journey}: the ended online path does not send to a store`, answer);
      }
    }
    // A refusal names no folio, and the limit's names none of the holder's other lines.
    const named = this.registeredNumbers.filter(
      (other) => answer.body.includes(other) || answer.body.includes(spacedNumber(other)),
    );
    if (hasTestId(answer.body, "registration-folio") || named.length > 0) {
      throw new HttpError(
        `${journey}: the refusal shows a folio or the holder's other lines (${named.join(", ")})`,
        answer,
      );
    }
    told.outcome = "refused";
    told.refusal = refusal;
    this.recorder.registrationRefused(refusal);
    return refusal;
  }

  /** The holder's form sent once, or (an impatient customer) twice: every answer. */
  async sendHolder(browser, holderFields) {
    const fields = withPhotos(holderFields);
    await think();
    if (!chance(DOUBLE_SUBMIT_PROBABILITY)) return [await browser.post(REGISTRATION_PAGE, fields)];
    this.recorder.doubleSubmitted();
    if (chance(0.5)) {
      return Promise.all([
        browser.post(REGISTRATION_PAGE, fields),
        browser.post(REGISTRATION_PAGE, fields),
      ]);
    }
    const first = await browser.post(REGISTRATION_PAGE, fields);
    return [first, await browser.post(REGISTRATION_PAGE, fields)];
  }

  /**
   * The right holder's answers (sent here, unless `sent` has them already), then the receipt's
   * folio.
   */
  async submitHolder(journey, browser, fields, told, holder, sent = null) {
    const answers = sent ?? (await this.sendHolder(browser, fields));
    // Sent again after it registered, the form finds the number no longer waiting for a holder
    // (400, "prove the number again"); the receipt is still this browser's to see.
    const registered = answers.filter((answer) => answer.status === 303);
    if (registered.length === 0) expectRedirect(answers[0], /^\/registro-de-linea$/);
    for (const answer of answers) {
      if (answer.status !== 303) expectStatus(answer, 400);
      else expectRedirect(answer, /^\/registro-de-linea$/);
    }
    told.outcome = "told";
    const receipt = expectStatus(await browser.get(REGISTRATION_PAGE), 200);
    told.folio = testIdText(receipt.body, "registration-folio");
    if (!told.folio) throw new HttpError(`${journey}: the receipt shows no folio`, receipt);
    const shownKey = testIdText(receipt.body, "registration-holder-key");
    if (shownKey !== holder.holderKeyMasked || receipt.body.includes(holder.curp)) {
      throw new HttpError(`${journey}: the receipt shows the CURP as "${shownKey}"`, receipt);
    }
    this.recorder.registrationShown();
  }

  /** A portability request for a number of its own; now and then a second one for a number already requested. */
  async portability(journey) {
    const repeat = this.portedNumbers.length > 0 && chance(REPEAT_PORTABILITY_PROBABILITY);
    const phoneNumber = repeat
      ? pick(this.portedNumbers)
      : portabilityNumber(this.index, ++this.portabilitySerial);
    const page = expectStatus(await this.get("/portabilidad"), 200);
    const idempotencyKey = inputValue(page.body, "idempotency_key");
    if (!idempotencyKey) throw new Error(`${journey}: the portability form has no idempotency key`);
    const told = this.recorder.ledger.portability({ journey, idempotencyKey, phoneNumber });
    const form = {
      phone_number: `${phoneNumber.slice(0, 2)} ${phoneNumber.slice(2, 6)} ${phoneNumber.slice(6)}`,
      nip: String(1000 + Math.floor(Math.random() * 9000)),
      full_name: pick(["Ana Gómez Martínez", "Luis Hernández Soto", "María José Ruiz"]),
      email: this.account.email,
      curp: chance(0.3) ? validCurp().toLowerCase() : validCurp(),
      current_carrier: pick(CARRIERS),
      iccid: chance(0.5) ? validIccid() : "",
      accept_terms: "on",
      idempotency_key: idempotencyKey,
    };
    const answers = await this.submit("/portabilidad", form);
    if (repeat) {
      // The number already has an open request: the store refuses a second one (409) without
      // naming the first one's folio; nothing may be stored for this form.
      for (const answer of answers) expectStatus(answer, 409);
      told.outcome = "refused";
      return;
    }
    const results = toldBy(told, answers, /^\/portabilidad\?solicitud=POR-/);
    for (const location of results) {
      told.folios.push(new URL(location, "http://x").searchParams.get("solicitud"));
    }
    const result = expectStatus(await this.browser.follow(answers.at(-1)), 200);
    const shownFolio = testIdText(result.body, "portability-folio");
    if (!shownFolio) throw new HttpError(`${journey}: the result page shows no folio`, result);
    told.folios.push(shownFolio);
    this.portedNumbers.push(phoneNumber);
  }
}
