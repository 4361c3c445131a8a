import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "~/config.server";
import type { Services } from "~/context";
import * as selectFirstFactor from "~/routes/auth.select-first-factor";
import * as signIn from "~/routes/auth.sign-in";
import { createServices } from "~/services.server";
import { Browser, call } from "./support/route-calls";
import { softwareAuthenticator } from "./support/software-authenticator";

/**
 * The sign-in page's passkey button (decision 0138) through the route's action against the
 * embedded emulator: the e-mail typed gets the same answer whether it has an account with a
 * passkey, an account without one, or no account, and no answer lists an account's passkeys.
 */

const ORIGIN = "http://localhost:3000";
const PASSWORD = "Conecta-2025x";
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function embeddedServices(): Promise<Services> {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "passkey-alike-")),
    SESSION_SECRET: "passkey-alike-test-secret-long-enough-0123456789",
    PUBLIC_BASE_URL: ORIGIN,
  });
  const services = await createServices(config, pino({ level: "silent" }));
  cleanups.push(() => services.db.destroy());
  cleanups.push(() => services.identity.close());
  await services.identity.ready();
  return services;
}

/** A confirmed account; with a device, a passkey made on it. The passkey's id. */
async function account(
  services: Services,
  email: string,
  device?: ReturnType<typeof softwareAuthenticator>,
) {
  const { client, outbox } = services.identity;
  await client.signUp({
    username: email,
    password: PASSWORD,
    attributes: [{ Name: "email", Value: email }],
  });
  await client.confirmSignUp(email, outbox!.list(email)[0].code);
  if (!device) return null;
  const accessToken = (await client.signIn(email, PASSWORD)).AuthenticationResult!.AccessToken;
  const { CredentialCreationOptions } = await client.startWebAuthnRegistration(accessToken);
  const made = device.create(CredentialCreationOptions as never);
  await client.completeWebAuthnRegistration(accessToken, made);
  return made.id as string;
}

/** The passkey button pressed with this e-mail typed, from a browser of its own. */
async function pressPasskeyButton(services: Services, email: string) {
  const browser = new Browser();
  const answer = await call(signIn.action, services, browser, "/auth/sign-in", {
    intent: "passkey-start",
    username: email,
  });
  return { browser, answer };
}

/** The browser's ceremony with these options, and its answer posted. */
async function answerWith(
  services: Services,
  pressed: Awaited<ReturnType<typeof pressPasskeyButton>>,
  device: ReturnType<typeof softwareAuthenticator>,
) {
  const { passkeyRequestOptions } = pressed.answer.data as {
    passkeyRequestOptions: Parameters<typeof device.get>[0];
  };
  return call(signIn.action, services, pressed.browser, "/auth/sign-in", {
    intent: "passkey-answer",
    credential: JSON.stringify(device.get(passkeyRequestOptions)),
  });
}

/** The answer with what differs on every press (the challenge) replaced by its shape. */
function shapeOf(data: unknown) {
  const { passkeyRequestOptions } = data as {
    passkeyRequestOptions: Record<string, unknown> & { challenge: string };
  };
  return {
    ...passkeyRequestOptions,
    challenge: `${passkeyRequestOptions.challenge.length} base64url characters`,
  };
}

describe("the passkey button answers every address alike", () => {
  it("gives an account with a passkey, one without and an unknown address the same answer, with no passkey listed", async () => {
    const services = await embeddedServices();
    const phone = softwareAuthenticator(ORIGIN);
    const credentialId = await account(services, "con-llave@ejemplo.mx", phone);
    await account(services, "sin-llave@ejemplo.mx");

    const [known, withoutPasskey, unknown] = await Promise.all(
      ["con-llave@ejemplo.mx", "sin-llave@ejemplo.mx", "nadie@ejemplo.mx"].map((email) =>
        pressPasskeyButton(services, email),
      ),
    );
    for (const { answer } of [known, withoutPasskey, unknown]) {
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.data as object)).toEqual(["passkeyRequestOptions"]);
      expect(shapeOf(answer.data)).toEqual({
        challenge: "43 base64url characters",
        rpId: "localhost",
        timeout: 120_000,
        userVerification: "required",
        allowCredentials: [],
      });
      expect(JSON.stringify(answer.data)).not.toContain(credentialId);
      // The same cookie set (the pending sign-in, sealed), and nothing else.
      expect(answer.setCookies.map((line) => line.split("=")[0])).toEqual(["auth_pending"]);
    }
  }, 60_000);

  it("signs the account's own passkey in; a passkey answering for an address that has none is refused as another account's passkey is", async () => {
    const services = await embeddedServices();
    const phone = softwareAuthenticator(ORIGIN);
    await account(services, "duena@ejemplo.mx", phone);
    await account(services, "sin-llave@ejemplo.mx");
    // Someone with a passkey of their own account on this site.
    const strangersPhone = softwareAuthenticator(ORIGIN);
    await account(services, "extrana@ejemplo.mx", strangersPhone);

    const owner = await answerWith(
      services,
      await pressPasskeyButton(services, "duena@ejemplo.mx"),
      phone,
    );
    expect(owner.location).toBe("/my-account");

    const refusals = await Promise.all(
      ["duena@ejemplo.mx", "sin-llave@ejemplo.mx", "nadie@ejemplo.mx"].map(async (email) =>
        answerWith(services, await pressPasskeyButton(services, email), strangersPhone),
      ),
    );
    const refusedText = (
      JSON.parse(readFileSync("public/locales/es/auth.json", "utf8")) as {
        errors: { passkeyRefused: string };
      }
    ).errors.passkeyRefused;
    for (const refusal of refusals) {
      expect(refusal.status).toBe(400);
      expect(JSON.stringify(refusal.data)).toContain(refusedText);
      // Alike but for the browser's own answer, which the form gives back.
      expect({ ...(refusal.data as object), initialValue: null }).toEqual({
        ...(refusals[0].data as object),
        initialValue: null,
      });
    }
  }, 60_000);

  it("offers a passkey on 'Otras formas de entrar' to an account with one and to one without, and answers both alike", async () => {
    const services = await embeddedServices();
    const credentialId = await account(
      services,
      "con-llave@ejemplo.mx",
      softwareAuthenticator(ORIGIN),
    );
    await account(services, "sin-llave@ejemplo.mx");

    const answers = await Promise.all(
      ["con-llave@ejemplo.mx", "sin-llave@ejemplo.mx"].map(async (email) => {
        const browser = new Browser();
        const otherWays = await call(signIn.action, services, browser, "/auth/sign-in", {
          intent: "other-ways",
          username: email,
        });
        expect(otherWays.location).toBe("/auth/select-first-factor");
        const choice = await call(
          selectFirstFactor.loader,
          services,
          browser,
          "/auth/select-first-factor",
        );
        const pressed = await call(
          selectFirstFactor.action,
          services,
          browser,
          "/auth/select-first-factor",
          { intent: "passkey-start" },
        );
        return { choice: choice.data, pressed };
      }),
    );
    for (const { choice, pressed } of answers) {
      expect(choice).toMatchObject({ passkey: true, factors: ["password"] });
      expect(pressed.status).toBe(200);
      expect(shapeOf(pressed.data)).toEqual(shapeOf(answers[0].pressed.data));
      expect(JSON.stringify(pressed.data)).not.toContain(credentialId);
    }
  }, 60_000);
});
