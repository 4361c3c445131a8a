import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  ConfigError,
  environmentSchema,
  loadConfig,
  loadDatabaseConfig,
  unsupportedRuntime,
} from "./config.server";

const tempDir = () => mkdtempSync(path.join(tmpdir(), "config-test-"));
const longSecret = "a".repeat(32);
/** Production on the embedded test doubles, by the operator's explicit choice. */
const productionTestEnvironment = {
  NODE_ENV: "production",
  SESSION_SECRET: "p".repeat(40),
  PUBLIC_BASE_URL: "https://pruebas.conectamovil.mx",
  ALLOW_SANDBOX_PAYMENTS: "true",
  ALLOW_EMBEDDED_IDENTITY: "true",
  ALLOW_SANDBOX_ESIM: "true",
  ALLOW_CAPTURED_MAIL: "true",
  ALLOW_SIMULATED_BSS: "true",
  ALLOW_CAPTURED_SMS: "true",
  ALLOW_SANDBOX_ID_VALIDATION: "true",
  ALLOW_SANDBOX_INVOICES: "true",
};

/** An install without the emulator's packages, as `npm install --omit=dev` leaves it. */
const productionInstall = {
  missingEmulatorPackages: () => ["cognito-local", "stormdb", "otplib"],
};

/** The one-line message loadConfig refuses with. */
function refusal(
  env: Record<string, string>,
  installed?: Parameters<typeof loadConfig>[1],
): string {
  try {
    loadConfig({ DATA_DIR: tempDir(), ...env }, installed);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("unsupportedRuntime", () => {
  it("runs on Node 24 and on any Node with Node-API 10, and refuses Node 20 in one line", () => {
    expect(unsupportedRuntime()).toBeNull();
    expect(unsupportedRuntime({ node: "24.21.0", napi: "10" })).toBeNull();
    expect(unsupportedRuntime({ node: "22.14.0", napi: "10" })).toBeNull();
    const refused = unsupportedRuntime({ node: "20.20.2", napi: "9" });
    expect(refused).toMatch(/^Unsupported Node\.js v20\.20\.2: run Node 24 /);
    expect(refused).not.toContain("\n");
  });
});

describe("loadConfig", () => {
  it(".env.example names every variable the server reads", () => {
    const example = readFileSync(path.join(__dirname, "../.env.example"), "utf8");
    const missing = Object.keys(environmentSchema.shape).filter(
      (variable) => !new RegExp(`^#? ?${variable}=`, "m").test(example),
    );
    expect(missing).toEqual([]);
  });

  it("refuses the embedded emulator in one line on a production install, which starts on a real pool", () => {
    const message = refusal({}, productionInstall);
    expect(message.split("\n")).toHaveLength(1);
    expect(message).toContain("COGNITO_USER_POOL_ID");
    expect(message).toContain("cognito-local, stormdb, otplib");
    expect(message).toContain("npm install --omit=dev");
    const onPool = loadConfig(
      {
        DATA_DIR: tempDir(),
        COGNITO_USER_POOL_ID: "us-east-1_example",
        COGNITO_CLIENT_ID: "client",
      },
      productionInstall,
    );
    expect(onPool.identityMode).toBe("cognito");
  });

  it("starts with embedded defaults on a bare machine", () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.PORT).toBe(3000);
    expect(config.NODE_ENV).toBe("development");
    expect(config.dataDir).toBe(dataDir);
    expect(config.sessionSecrets).toHaveLength(1);
  });

  it("keeps the generated development secret across restarts, in DATA_DIR", () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir }).sessionSecrets[0];
    const second = loadConfig({ DATA_DIR: dataDir }).sessionSecrets[0];
    expect(second).toBe(first);
    expect(readFileSync(path.join(dataDir, "session-secret"), "utf8")).toBe(first);
  });

  it("refuses to start in production without SESSION_SECRET, naming the variable", () => {
    const { SESSION_SECRET: _secret, ...withoutSecret } = productionTestEnvironment;
    expect(refusal(withoutSecret)).toMatch(
      /^Invalid configuration: SESSION_SECRET: required in production/,
    );
  });

  it("reads a comma-separated secret list for rotation, newest first", () => {
    const config = loadConfig({
      ...productionTestEnvironment,
      DATA_DIR: tempDir(),
      SESSION_SECRET: `${"n".repeat(40)}, ${longSecret}`,
    });
    expect(config.sessionSecrets).toEqual(["n".repeat(40), longSecret]);
    expect(config.isProduction).toBe(true);
  });

  it("rejects a short secret", () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), SESSION_SECRET: "short" })).toThrow(ConfigError);
  });

  it.each([
    ["PORT", { PORT: "not-a-port" }],
    ["PORT", { PORT: "70000" }],
    ["NODE_ENV", { NODE_ENV: "staging" }],
    ["PUBLIC_BASE_URL", { PUBLIC_BASE_URL: "not a url" }],
    ["WHATSAPP_NUMBER", { WHATSAPP_NUMBER: "+52 55" }],
  ])("names %s in a one-line error when its value is bad", (variable, env) => {
    let message = "";
    try {
      loadConfig({ DATA_DIR: tempDir(), ...env });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.startsWith(`Invalid configuration: ${variable}:`)).toBe(true);
    expect(message).not.toContain("\n");
  });

  it("names the first missing setting of the TMF BSS and of the SMSC, in one line", () => {
    const base = { SESSION_SECRET: longSecret };
    expect(refusal({ ...base, BSS_PROVIDER: "tmf" })).toBe(
      "Invalid configuration: BSS_BASE_URL: required when BSS_PROVIDER=tmf",
    );
    expect(
      refusal({
        ...base,
        BSS_PROVIDER: "tmf",
        BSS_BASE_URL: "https://bss.example.mx",
        BSS_TOKEN_URL: "https://bss.example.mx/oauth/token",
        BSS_CLIENT_ID: "tienda",
      }),
    ).toBe("Invalid configuration: BSS_CLIENT_SECRET: required when BSS_PROVIDER=tmf");
    expect(refusal({ ...base, SMS_PROVIDER: "smpp", SMPP_URL: "smpp://smsc.example.mx" })).toBe(
      "Invalid configuration: SMPP_SYSTEM_ID: required when SMS_PROVIDER=smpp",
    );
    expect(refusal({ ...base, SMPP_URL: "http://smsc.example.mx" })).toMatch(
      /^Invalid configuration: SMPP_URL: /,
    );
  });

  it("refuses production on the payment sandbox or the embedded emulator unless told, naming what is missing", () => {
    const {
      ALLOW_SANDBOX_PAYMENTS: _s,
      ALLOW_EMBEDDED_IDENTITY: _i,
      ALLOW_SANDBOX_ESIM: _e,
      ALLOW_CAPTURED_MAIL: _m,
      ALLOW_SIMULATED_BSS: _b,
      ALLOW_CAPTURED_SMS: _t,
      ALLOW_SANDBOX_ID_VALIDATION: _v,
      ...bare
    } = productionTestEnvironment;
    const both = refusal(bare);
    expect(both).toMatch(/^Refusing to start in production without /);
    expect(both).toContain("COGNITO_USER_POOL_ID and COGNITO_CLIENT_ID");
    expect(both).toContain("ALLOW_EMBEDDED_IDENTITY=true");
    expect(both).toContain("PAYMENT_PROVIDER");
    expect(both).toContain("ALLOW_SANDBOX_PAYMENTS=true");
    expect(both).toContain("ESIM_PROVIDER=es2plus");
    expect(both).toContain("ALLOW_SANDBOX_ESIM=true");
    expect(both).toContain("SMTP_URL");
    expect(both).toContain("ALLOW_CAPTURED_MAIL=true");
    expect(both).toContain("BSS_PROVIDER=tmf");
    expect(both).toContain("ALLOW_SIMULATED_BSS=true");
    expect(both).toContain("SMS_PROVIDER=smpp");
    expect(both).toContain("ALLOW_CAPTURED_SMS=true");
    expect(both).toContain("ID_VALIDATION_PROVIDER=http");
    expect(both).toContain("ALLOW_SANDBOX_ID_VALIDATION=true");
    expect(both).not.toContain("\n");

    const withPool = refusal({
      ...bare,
      COGNITO_USER_POOL_ID: "us-west-2_Ab12CdE3f",
      COGNITO_CLIENT_ID: "4l7kq2n5v8x1c3b6m9p0r2t4w6",
    });
    expect(withPool).not.toContain("COGNITO_USER_POOL_ID");
    expect(withPool).toContain("ALLOW_SANDBOX_PAYMENTS=true");

    const { PUBLIC_BASE_URL: _url, ...withoutAddress } = productionTestEnvironment;
    expect(refusal(withoutAddress)).toContain("PUBLIC_BASE_URL");
  });

  it("runs production on test doubles only by opt-in, and says so", () => {
    const config = loadConfig({ ...productionTestEnvironment, DATA_DIR: tempDir() });
    expect(config.testDoubles).toEqual([
      "payments",
      "identity",
      "esim",
      "mail",
      "bss",
      "sms",
      "id-validation",
      "invoices",
    ]);
    expect(config.isTestEnvironment).toBe(true);
    const development = loadConfig({ DATA_DIR: tempDir() });
    expect(development.testDoubles).toEqual([
      "payments",
      "identity",
      "esim",
      "mail",
      "bss",
      "sms",
      "id-validation",
      "invoices",
    ]);
    expect(development.isTestEnvironment).toBe(false);
  });

  it("stamps invoices at Facturapi only with its key, as the issuer configured, over https in production", () => {
    const issuer = {
      INVOICE_ISSUER_RFC: "CNM980114PI2",
      INVOICE_ISSUER_NAME: "CONECTA MOVIL TELECOMUNICACIONES",
      INVOICE_ISSUER_REGIMEN: "601",
      INVOICE_ISSUER_POSTAL_CODE: "06600",
    };
    const facturapi = {
      ...productionTestEnvironment,
      ALLOW_SANDBOX_INVOICES: "false",
      INVOICE_PROVIDER: "facturapi",
      FACTURAPI_KEY: "sk_live_AbCdEf123456",
      ...issuer,
    };
    const { FACTURAPI_KEY: _k, ...withoutKey } = facturapi;
    expect(refusal(withoutKey)).toBe(
      "Invalid configuration: FACTURAPI_KEY: required when INVOICE_PROVIDER=facturapi",
    );
    const malformed = refusal({ ...facturapi, FACTURAPI_KEY: "pk_live_secreta" });
    expect(malformed).toMatch(/^Invalid configuration: FACTURAPI_KEY: /);
    expect(malformed).not.toContain("pk_live_secreta");
    const { INVOICE_ISSUER_NAME: _n, ...withoutName } = facturapi;
    expect(refusal(withoutName)).toMatch(
      /^Invalid configuration: INVOICE_ISSUER_NAME: required in production with INVOICE_PROVIDER=facturapi/,
    );
    expect(refusal({ ...facturapi, INVOICE_ISSUER_RFC: "CNM980114PI3" })).toBe(
      "Invalid configuration: INVOICE_ISSUER_RFC: not a valid RFC (check-digit)",
    );
    expect(refusal({ ...facturapi, INVOICE_ISSUER_REGIMEN: "612" })).toBe(
      "Invalid configuration: INVOICE_ISSUER_REGIMEN: not a régimen of SAT's catalogue for a persona moral",
    );
    expect(refusal({ ...facturapi, FACTURAPI_API_URL: "http://facturapi.interno" })).toMatch(
      /^Invalid configuration: FACTURAPI_API_URL: must be an https address/,
    );
    const live = loadConfig({ ...facturapi, DATA_DIR: tempDir() });
    expect(live.testDoubles).not.toContain("invoices");
    expect(live).toMatchObject({
      INVOICE_ISSUER_RFC: "CNM980114PI2",
      INVOICE_ISSUER_REGIMEN: "601",
    });
    // A test key stamps nothing at SAT: a test environment, by opt-in only.
    const testKey = { ...facturapi, FACTURAPI_KEY: "sk_test_AbCdEf123456" };
    expect(refusal(testKey)).toContain("a live Facturapi key");
    expect(
      loadConfig({ ...testKey, ALLOW_SANDBOX_INVOICES: "true", DATA_DIR: tempDir() }).testDoubles,
    ).toContain("invoices");
    // The sandbox in production: by opt-in, on SAT's test issuer unless one is set.
    const { ALLOW_SANDBOX_INVOICES: _a, ...sandboxWithoutOptIn } = productionTestEnvironment;
    expect(refusal(sandboxWithoutOptIn)).toContain(
      "a real invoicing provider (INVOICE_PROVIDER=facturapi; ALLOW_SANDBOX_INVOICES=true runs a test environment on invoices without fiscal validity)",
    );
    expect(loadConfig({ ...productionTestEnvironment, DATA_DIR: tempDir() })).toMatchObject({
      INVOICE_ISSUER_RFC: "EKU9003173C9",
    });
  });

  it("validates identities at the operator's service only with its address and key, over https in production", () => {
    const http = {
      ...productionTestEnvironment,
      ALLOW_SANDBOX_ID_VALIDATION: "false",
      ID_VALIDATION_PROVIDER: "http",
      ID_VALIDATION_URL: "https://validacion.operador.mx/api",
      ID_VALIDATION_API_KEY: "k".repeat(40),
    };
    const { ID_VALIDATION_URL: _u, ...withoutUrl } = http;
    expect(refusal(withoutUrl)).toBe(
      "Invalid configuration: ID_VALIDATION_URL: required when ID_VALIDATION_PROVIDER=http",
    );
    const { ID_VALIDATION_API_KEY: _k, ...withoutKey } = http;
    expect(refusal(withoutKey)).toBe(
      "Invalid configuration: ID_VALIDATION_API_KEY: required when ID_VALIDATION_PROVIDER=http",
    );
    // The key itself never appears in the message.
    const shortKey = refusal({ ...http, ID_VALIDATION_API_KEY: "corta-123" });
    expect(shortKey).toBe("Invalid configuration: ID_VALIDATION_API_KEY: at least 16 characters");
    expect(refusal({ ...http, ID_VALIDATION_API_KEY: `${"k".repeat(20)} x` })).toMatch(
      /^Invalid configuration: ID_VALIDATION_API_KEY: printable characters/,
    );
    expect(refusal({ ...http, ID_VALIDATION_URL: "http://validacion.operador.mx" })).toMatch(
      /^Invalid configuration: ID_VALIDATION_URL: must be an https address in production/,
    );
    expect(refusal({ ...http, ID_VALIDATION_TIMEOUT_MS: "100" })).toMatch(
      /^Invalid configuration: ID_VALIDATION_TIMEOUT_MS: /,
    );
    expect(refusal({ ...http, ID_VALIDATION_PROVIDER: "renapo" })).toMatch(
      /^Invalid configuration: ID_VALIDATION_PROVIDER: /,
    );
    const real = loadConfig({ ...http, DATA_DIR: tempDir() });
    expect(real.testDoubles).toEqual([
      "payments",
      "identity",
      "esim",
      "mail",
      "bss",
      "sms",
      "invoices",
    ]);
    expect(real.ID_VALIDATION_TIMEOUT_MS).toBe(8_000);
    // Outside production a local stand-in may speak plain http; the sandbox needs nothing.
    expect(
      loadConfig({
        DATA_DIR: tempDir(),
        ID_VALIDATION_PROVIDER: "http",
        ID_VALIDATION_URL: "http://127.0.0.1:4010",
        ID_VALIDATION_API_KEY: "k".repeat(40),
      }).ID_VALIDATION_PROVIDER,
    ).toBe("http");
    expect(loadConfig({ DATA_DIR: tempDir() }).ID_VALIDATION_PROVIDER).toBe("sandbox");
  });

  it("refuses production on the sandbox validation unless told, and then is a test environment", () => {
    const { ALLOW_SANDBOX_ID_VALIDATION: _v, ...withoutAllow } = productionTestEnvironment;
    const message = refusal(withoutAllow);
    expect(message).toBe(
      "Refusing to start in production without the operator's identity validation service (ID_VALIDATION_PROVIDER=http; ALLOW_SANDBOX_ID_VALIDATION=true runs a test environment on the sandbox validation)",
    );
    const allowed = loadConfig({ ...productionTestEnvironment, DATA_DIR: tempDir() });
    expect(allowed.testDoubles).toContain("id-validation");
    expect(allowed.isTestEnvironment).toBe(true);
  });

  it("issues eSIM codes from an SM-DP+ only with its address, our identifier and its notifications' secret, over https", () => {
    const es2plus = {
      ...productionTestEnvironment,
      ALLOW_SANDBOX_ESIM: "false",
      ESIM_PROVIDER: "es2plus",
      ES2PLUS_BASE_URL: "https://smdp.operador.mx",
      ES2PLUS_REQUESTER_ID: "conecta-movil",
      ES2PLUS_NOTIFICATION_SECRET: "n".repeat(40),
    };
    const { ES2PLUS_REQUESTER_ID: _r, ...withoutRequester } = es2plus;
    expect(refusal(withoutRequester)).toBe(
      "Invalid configuration: ES2PLUS_REQUESTER_ID: required when ESIM_PROVIDER=es2plus",
    );
    const { ES2PLUS_NOTIFICATION_SECRET: _s, ...withoutSecret } = es2plus;
    expect(refusal(withoutSecret)).toBe(
      "Invalid configuration: ES2PLUS_NOTIFICATION_SECRET: required when ESIM_PROVIDER=es2plus",
    );
    expect(refusal({ ...es2plus, ES2PLUS_NOTIFICATION_SECRET: "short" })).toBe(
      "Invalid configuration: ES2PLUS_NOTIFICATION_SECRET: at least 32 characters",
    );
    expect(refusal({ ...es2plus, ES2PLUS_NOTIFICATION_SECRET: `${"n".repeat(40)} x` })).toMatch(
      /^Invalid configuration: ES2PLUS_NOTIFICATION_SECRET: printable characters/,
    );
    // The sandbox issues codes no SM-DP+ knows: nothing notifies, so no secret is asked for.
    expect(
      loadConfig({ ...productionTestEnvironment, DATA_DIR: tempDir() }).ES2PLUS_NOTIFICATION_SECRET,
    ).toBeUndefined();
    expect(refusal({ ...es2plus, ES2PLUS_BASE_URL: "http://smdp.operador.mx" })).toMatch(
      /^Invalid configuration: ES2PLUS_BASE_URL: must be an https address/,
    );
    const real = loadConfig({ ...es2plus, DATA_DIR: tempDir() });
    expect(real.testDoubles).toEqual([
      "payments",
      "identity",
      "mail",
      "bss",
      "sms",
      "id-validation",
      "invoices",
    ]);
  });

  it("runs on Stripe only with both its keys; a test-mode key in production is a test environment", () => {
    const stripe = {
      ...productionTestEnvironment,
      ALLOW_SANDBOX_PAYMENTS: "false",
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_live_51AbCdEf",
      STRIPE_WEBHOOK_SECRET: "whsec_AbCdEf123",
    };
    const { STRIPE_WEBHOOK_SECRET: _w, ...withoutWebhookSecret } = stripe;
    expect(refusal(withoutWebhookSecret)).toBe(
      "Invalid configuration: STRIPE_WEBHOOK_SECRET: required when PAYMENT_PROVIDER=stripe",
    );
    const { STRIPE_SECRET_KEY: _k, ...withoutKey } = stripe;
    expect(refusal(withoutKey)).toMatch(/^Invalid configuration: STRIPE_SECRET_KEY: required/);
    // The key itself never appears in the message.
    const malformed = refusal({ ...stripe, STRIPE_SECRET_KEY: "pk_live_publishable" });
    expect(malformed).toMatch(/^Invalid configuration: STRIPE_SECRET_KEY: /);
    expect(malformed).not.toContain("pk_live_publishable");

    const live = loadConfig({ ...stripe, DATA_DIR: tempDir() });
    expect(live.testDoubles).toEqual([
      "identity",
      "esim",
      "mail",
      "bss",
      "sms",
      "id-validation",
      "invoices",
    ]);
    const testMode = { ...stripe, STRIPE_SECRET_KEY: "sk_test_51AbCdEf" };
    expect(refusal(testMode)).toContain("a live Stripe key");
    const allowed = loadConfig({
      ...testMode,
      ALLOW_SANDBOX_PAYMENTS: "true",
      DATA_DIR: tempDir(),
    });
    expect(allowed.testDoubles).toEqual([
      "payments",
      "identity",
      "esim",
      "mail",
      "bss",
      "sms",
      "id-validation",
      "invoices",
    ]);
    expect(allowed.isTestEnvironment).toBe(true);
    expect(refusal({ ...stripe, STRIPE_API_URL: "http://stripe-stub.interno:12111" })).toMatch(
      /^Invalid configuration: STRIPE_API_URL: must be an https address/,
    );
  });

  it("listens on loopback outside production and on every interface in production", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).host).toBe("127.0.0.1");
    expect(loadConfig({ DATA_DIR: tempDir(), NODE_ENV: "test" }).host).toBe("127.0.0.1");
    expect(loadConfig({ ...productionTestEnvironment, DATA_DIR: tempDir() }).host).toBe("0.0.0.0");
    expect(loadConfig({ DATA_DIR: tempDir(), HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
  });

  it("takes the public origin from configuration only, the listening port in development", () => {
    expect(loadConfig({ DATA_DIR: tempDir(), PORT: "3100" }).publicOrigin).toBe(
      "http://localhost:3100",
    );
    expect(loadConfig({ ...productionTestEnvironment, DATA_DIR: tempDir() }).publicOrigin).toBe(
      "https://pruebas.conectamovil.mx",
    );
  });

  it.each([
    ["false", false],
    ["0", false],
    ["1", 1],
    ["2", 2],
    ["10.0.0.1", ["10.0.0.1"]],
    ["10.0.0.0/8, loopback", ["10.0.0.0/8", "loopback"]],
    ["::1, fd00::/8", ["::1", "fd00::/8"]],
  ])("TRUST_PROXY=%s trusts %j", (value, expected) => {
    expect(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each(["true", "yes", "10.0.0.300", "10.0.0.0/33", "11", "10.0.0.1/", "fe80::1%eth-0", ","])(
    "TRUST_PROXY=%s is refused, naming the variable",
    (value) => {
      expect(refusal({ TRUST_PROXY: value })).toMatch(/^Invalid configuration: TRUST_PROXY:/);
    },
  );

  it.each([
    ["0.0.0.0/0", "IPv4"],
    ["0.0.0.0/1,128.0.0.0/1", "IPv4"],
    ["10.0.0.0/8, 0.0.0.0/2, 64.0.0.0/2, 128.0.0.0/1", "IPv4"],
    ["::ffff:0:0/96", "IPv4"],
    ["::/0", "IPv6"],
    ["::/1, 8000::/1", "IPv6"],
  ])("TRUST_PROXY=%s trusts every %s address: refused in one line", (value, family) => {
    const message = refusal({ TRUST_PROXY: value });
    expect(message).toMatch(/^Invalid configuration: TRUST_PROXY: /);
    expect(message).toContain(`trusts every ${family} address`);
    expect(message).not.toContain("\n");
  });

  it("counts IPv6 clients by their /64 unless told another prefix length", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).RATE_LIMIT_IPV6_PREFIX).toBe(64);
    expect(
      loadConfig({ DATA_DIR: tempDir(), RATE_LIMIT_IPV6_PREFIX: "56" }).RATE_LIMIT_IPV6_PREFIX,
    ).toBe(56);
    for (const value of ["0", "129", "64.5", "sesenta"]) {
      expect(refusal({ RATE_LIMIT_IPV6_PREFIX: value })).toMatch(
        /^Invalid configuration: RATE_LIMIT_IPV6_PREFIX:/,
      );
    }
  });

  it("requires https addresses in production, except on this machine", () => {
    expect(
      refusal({ ...productionTestEnvironment, PUBLIC_BASE_URL: "http://www.conectamovil.mx" }),
    ).toMatch(/^Invalid configuration: PUBLIC_BASE_URL: must be an https address/);
    expect(
      refusal({
        ...productionTestEnvironment,
        COGNITO_USER_POOL_ID: "us-west-2_Ab12CdE3f",
        COGNITO_CLIENT_ID: "4l7kq2n5v8x1c3b6m9p0r2t4w6",
        COGNITO_ENDPOINT: "http://cognito.interno:9229/",
      }),
    ).toMatch(/^Invalid configuration: COGNITO_ENDPOINT: must be an https address/);
    expect(
      loadConfig({
        ...productionTestEnvironment,
        DATA_DIR: tempDir(),
        PUBLIC_BASE_URL: "http://localhost:3000",
      }).publicOrigin,
    ).toBe("http://localhost:3000");
  });

  it("accepts forms from the public origin only in production; outside it from this machine's names", () => {
    expect(
      loadConfig({ ...productionTestEnvironment, DATA_DIR: tempDir() }).allowedOrigins,
    ).toEqual(["https://pruebas.conectamovil.mx"]);
    expect(loadConfig({ DATA_DIR: tempDir(), PORT: "3100" }).allowedOrigins).toEqual([
      "http://localhost:3100",
      "http://127.0.0.1:3100",
      "http://[::1]:3100",
    ]);
  });

  it("names the site after a particular listening address outside production", () => {
    expect(loadConfig({ DATA_DIR: tempDir(), HOST: "192.168.1.20" }).publicOrigin).toBe(
      "http://192.168.1.20:3000",
    );
    expect(loadConfig({ DATA_DIR: tempDir(), HOST: "0.0.0.0" }).publicOrigin).toBe(
      "http://localhost:3000",
    );
  });
});

describe("social sign-in configuration", () => {
  const realPool = {
    COGNITO_USER_POOL_ID: "us-west-2_AbC123",
    COGNITO_CLIENT_ID: "cliente123",
  };

  it("is off by default", () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    expect(config.SOCIAL_PROVIDERS).toEqual([]);
    expect(config.cognitoDomain).toBeNull();
  });

  it("reads a comma list of providers, in any case and spacing, once each", () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      SOCIAL_PROVIDERS: " Google, facebook,google",
    });
    expect(config.SOCIAL_PROVIDERS).toEqual(["google", "facebook"]);
  });

  it("refuses a provider it does not know, in one line", () => {
    expect(refusal({ SOCIAL_PROVIDERS: "google,myspace" })).toMatch(
      /^Invalid configuration: SOCIAL_PROVIDERS\.1: una lista separada por comas de amazon, apple, facebook, google$/,
    );
  });

  it("trusts only Google's word that an e-mail is verified unless told otherwise", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).TRUSTED_EMAIL_PROVIDERS).toEqual(["google"]);
    expect(
      loadConfig({ DATA_DIR: tempDir(), TRUSTED_EMAIL_PROVIDERS: "Apple, google" })
        .TRUSTED_EMAIL_PROVIDERS,
    ).toEqual(["apple", "google"]);
    expect(
      loadConfig({ DATA_DIR: tempDir(), TRUSTED_EMAIL_PROVIDERS: "none" }).TRUSTED_EMAIL_PROVIDERS,
    ).toEqual([]);
    expect(refusal({ TRUSTED_EMAIL_PROVIDERS: "google,myspace" })).toMatch(
      /^Invalid configuration: TRUSTED_EMAIL_PROVIDERS\.1: una lista separada por comas de amazon, apple, facebook, google$/,
    );
  });

  it("needs the pool's hosted domain with a real pool", () => {
    expect(refusal({ ...realPool, SOCIAL_PROVIDERS: "google" })).toMatch(
      /^Invalid configuration: COGNITO_DOMAIN: required when SOCIAL_PROVIDERS is set/,
    );
  });

  it("takes the domain as a bare host name or an address, as an origin", () => {
    for (const domain of [
      "conecta.auth.us-west-2.amazoncognito.com",
      "https://conecta.auth.us-west-2.amazoncognito.com/",
    ]) {
      const config = loadConfig({
        DATA_DIR: tempDir(),
        ...realPool,
        SOCIAL_PROVIDERS: "apple",
        COGNITO_DOMAIN: domain,
      });
      expect(config.cognitoDomain).toBe("https://conecta.auth.us-west-2.amazoncognito.com");
    }
  });

  it("refuses a domain that is not a host name", () => {
    expect(
      refusal({ ...realPool, SOCIAL_PROVIDERS: "google", COGNITO_DOMAIN: "https://a.example/x?y" }),
    ).toMatch(/^Invalid configuration: COGNITO_DOMAIN: un dominio/);
  });

  it("refuses a domain with the embedded emulator, which serves its own", () => {
    expect(refusal({ SOCIAL_PROVIDERS: "google", COGNITO_DOMAIN: "auth.example.com" })).toMatch(
      /^Invalid configuration: COGNITO_DOMAIN: only with a real pool/,
    );
  });

  it("requires https in production (http only on localhost)", () => {
    const production = {
      ...productionTestEnvironment,
      ...realPool,
      ALLOW_EMBEDDED_IDENTITY: "false",
      SOCIAL_PROVIDERS: "google",
    };
    expect(refusal({ ...production, COGNITO_DOMAIN: "http://auth.example.com" })).toMatch(
      /^Invalid configuration: COGNITO_DOMAIN: must be an https address in production/,
    );
    expect(
      loadConfig({ DATA_DIR: tempDir(), ...production, COGNITO_DOMAIN: "http://localhost:9229" })
        .cognitoDomain,
    ).toBe("http://localhost:9229");
  });

  it("keeps refusing the embedded emulator (and so its hosted stand-in) in production", () => {
    expect(
      refusal({
        ...productionTestEnvironment,
        ALLOW_EMBEDDED_IDENTITY: "false",
        SOCIAL_PROVIDERS: "google",
      }),
    ).toMatch(/^Refusing to start in production without a real identity pool/);
  });
});

describe("metrics and error reports (decisions 0110, 0111)", () => {
  const token = "m".repeat(32);

  it("serves /metrics on the public port outside production, and nowhere in production unless told", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).metrics).toEqual({ serve: "public", token: null });
    expect(loadConfig({ DATA_DIR: tempDir(), ...productionTestEnvironment }).metrics).toEqual({
      serve: "off",
    });
    expect(
      loadConfig({ DATA_DIR: tempDir(), ...productionTestEnvironment, METRICS_TOKEN: token })
        .metrics,
    ).toEqual({ serve: "public", token });
  });

  it("serves them on METRICS_PORT, on loopback unless told, and never on PORT", () => {
    expect(
      loadConfig({ DATA_DIR: tempDir(), ...productionTestEnvironment, METRICS_PORT: "9464" })
        .metrics,
    ).toEqual({ serve: "port", host: "127.0.0.1", port: 9464, token: null });
    expect(refusal({ PORT: "3000", METRICS_PORT: "3000" })).toMatch(
      /^Invalid configuration: METRICS_PORT: must differ from PORT/,
    );
    expect(refusal({ METRICS_PORT: "70000" })).toMatch(/^Invalid configuration: METRICS_PORT:/);
  });

  it("requires the token for a metrics port on another interface in production", () => {
    const exposed = { ...productionTestEnvironment, METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0" };
    expect(refusal(exposed)).toMatch(
      /^Invalid configuration: METRICS_TOKEN: required when METRICS_HOST \(0\.0\.0\.0\) is not loopback in production/,
    );
    expect(loadConfig({ DATA_DIR: tempDir(), ...exposed, METRICS_TOKEN: token }).metrics).toEqual({
      serve: "port",
      host: "0.0.0.0",
      port: 9464,
      token,
    });
  });

  it("refuses a short or spaced token", () => {
    expect(refusal({ METRICS_TOKEN: "short" })).toMatch(
      /^Invalid configuration: METRICS_TOKEN: at least 32 characters/,
    );
    expect(refusal({ METRICS_TOKEN: `${token} x` })).toMatch(
      /^Invalid configuration: METRICS_TOKEN:/,
    );
  });

  it("reports errors only to a well-formed DSN, over https in production", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).SENTRY_DSN).toBeUndefined();
    const dsn = "https://0123456789abcdef@o4500.ingest.sentry.io/4501";
    expect(loadConfig({ DATA_DIR: tempDir(), SENTRY_DSN: dsn }).SENTRY_DSN).toBe(dsn);
    expect(refusal({ SENTRY_DSN: "https://sentry.io/4501" })).toMatch(
      /^Invalid configuration: SENTRY_DSN: a Sentry DSN/,
    );
    expect(
      refusal({ ...productionTestEnvironment, SENTRY_DSN: "http://key@sentry.internal/1" }),
    ).toMatch(/^Invalid configuration: SENTRY_DSN: must be an https address in production/);
    expect(
      loadConfig({
        DATA_DIR: tempDir(),
        ...productionTestEnvironment,
        SENTRY_DSN: "http://key@127.0.0.1:9000/1",
      }).SENTRY_DSN,
    ).toBe("http://key@127.0.0.1:9000/1");
  });
});

describe("loadDatabaseConfig (npm run migrate, decision 0143)", () => {
  it("reads the database's settings alone: production without a pool, secret or providers", () => {
    expect(() => loadConfig({ NODE_ENV: "production", DATA_DIR: "/tmp/store" })).toThrow(
      ConfigError,
    );
    expect(loadDatabaseConfig({ NODE_ENV: "production", DATA_DIR: "/tmp/store" })).toEqual({
      dataDir: "/tmp/store",
      LOG_LEVEL: "info",
      DB_BUSY_TIMEOUT_MS: 500,
      DATABASE_URL: undefined,
      DATABASE_POOL_SIZE: 10,
      DATABASE_STATEMENT_TIMEOUT_MS: 5_000,
    });
    expect(
      loadDatabaseConfig({ DATABASE_URL: "postgres://store:secret@db:5432/store" }).DATABASE_URL,
    ).toBe("postgres://store:secret@db:5432/store");
  });

  it("refuses a bad database setting in one line, as the server does", () => {
    expect(() => loadDatabaseConfig({ DATABASE_URL: "mysql://db/store" })).toThrow(
      /^Invalid configuration: DATABASE_URL: /,
    );
  });
});

describe("POINTS_OF_SERVICE_FILE (decision 0140)", () => {
  it("defaults to the sample the store ships, marked as a sample", () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    expect(config.pointsOfService.sample).toBe(true);
    expect(config.pointsOfService.points.length).toBeGreaterThanOrEqual(12);
  });

  it("reads the operator's file, and a bad one stops the start with one line", () => {
    const dir = tempDir();
    const file = path.join(dir, "puntos.json");
    const point = {
      id: "gdl",
      nombre: "Conecta Móvil Guadalajara",
      direccion: "Av. Juárez 1",
      estado: "JAL",
      codigoPostal: "44100",
      horario: "Lunes a viernes de 9:00 a 18:00",
      servicios: ["registro-de-linea"],
    };
    writeFileSync(file, JSON.stringify({ puntos: [point] }));
    const config = loadConfig({ DATA_DIR: dir, POINTS_OF_SERVICE_FILE: file });
    expect(config.pointsOfService).toMatchObject({ sample: false, points: [{ id: "gdl" }] });

    writeFileSync(file, JSON.stringify({ puntos: [{ ...point, codigoPostal: "441" }] }));
    expect(refusal({ POINTS_OF_SERVICE_FILE: file })).toBe(
      `Invalid configuration: POINTS_OF_SERVICE_FILE: Puntos de atención en ${file}: punto 1 (gdl), codigoPostal: un código postal de 5 dígitos`,
    );
    writeFileSync(file, "{ puntos: ");
    expect(refusal({ POINTS_OF_SERVICE_FILE: file })).toMatch(
      /^Invalid configuration: POINTS_OF_SERVICE_FILE: Puntos de atención en .*: no es JSON válido/,
    );
    expect(refusal({ POINTS_OF_SERVICE_FILE: path.join(dir, "no-existe.json") })).toMatch(
      /^Invalid configuration: POINTS_OF_SERVICE_FILE: Puntos de atención: no se pudo leer .*no-existe\.json \(ENOENT\)$/,
    );
  });
});
