import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "~/config.server";
import type { Services } from "~/context";
import { totpCode } from "~/auth/emulator/totp.server";
import * as confirmSignIn from "~/routes/auth.confirm-sign-in";
import * as signIn from "~/routes/auth.sign-in";
import * as signOut from "~/routes/auth.sign-out";
import { createServices } from "~/services.server";
import { Browser, call } from "./support/route-calls";

/**
 * Remembered devices through the sign-in routes against the embedded emulator (decision 0123):
 * the customer with an authenticator app ticks "Recordar este dispositivo", signs out, and signs in
 * with the password alone (DEVICE_SRP_AUTH answered by the server); once the identity side forgets
 * the device, this browser drops it and is asked for the code again. The browser journey
 * (tests/e2e/passkeys-devices.spec.ts) walks the same path through the pages.
 */

const PASSWORD = "Conecta-2025x";
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  vi.useRealTimers();
  while (cleanups.length) await cleanups.pop()!();
});

async function embeddedServices(): Promise<Services> {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "remembered-device-")),
    SESSION_SECRET: "remembered-device-test-secret-long-enough-0123456789",
  });
  const services = await createServices(config, pino({ level: "silent" }));
  cleanups.push(() => services.db.destroy());
  cleanups.push(() => services.identity.close());
  await services.identity.ready();
  return services;
}

/** A confirmed account whose second factor is an authenticator app; its secret. */
async function totpAccount(services: Services, email: string) {
  const { client, outbox } = services.identity;
  await client.signUp({
    username: email,
    password: PASSWORD,
    attributes: [{ Name: "email", Value: email }],
  });
  await client.confirmSignUp(email, outbox!.list(email)[0].code);
  const accessToken = (await client.signIn(email, PASSWORD)).AuthenticationResult!.AccessToken;
  const { SecretCode } = await client.associateSoftwareToken({ accessToken });
  await client.verifySoftwareToken({ accessToken }, totpCode(SecretCode, Date.now()), "app");
  await client.setUserMfaPreference(accessToken, {
    SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
  });
  return SecretCode;
}

describe("a remembered device at sign-in (routes against the embedded emulator)", () => {
  it("skips the authenticator code after 'Recordar este dispositivo'; once forgotten on the identity side, it is dropped and the code is asked again", async () => {
    const services = await embeddedServices();
    const email = "dispositivo@ejemplo.mx";
    const secret = await totpAccount(services, email);
    const browser = new Browser();
    const form = { username: email, password: PASSWORD };

    const first = await call(signIn.action, services, browser, "/auth/sign-in", form);
    expect(first.location).toBe("/auth/confirm-sign-in");
    const confirmed = await call(confirmSignIn.action, services, browser, "/auth/confirm-sign-in", {
      confirmation_code: totpCode(secret, Date.now() + 30_000),
      remember_device: "on",
    });
    expect(confirmed.location).toBe("/my-account");
    const kept = services.cookies.rememberedDevices.read(browser.header);
    expect(kept).toEqual([
      expect.objectContaining({ username: email, deviceKey: expect.any(String) }),
    ]);
    const { accessToken } = services.cookies.authSession.read(browser.header)!;
    const [listed] = await services.identity.client.listDevices(accessToken);
    expect(listed.DeviceKey).toBe(kept![0].deviceKey);
    expect(listed.DeviceAttributes).toContainEqual({
      Name: "dev:device_remembered_status",
      Value: "remembered",
    });

    // Signing out keeps the device; the password alone signs in.
    expect((await call(signOut.action, services, browser, "/auth/sign-out", {})).location).toBe(
      "/",
    );
    expect(services.cookies.authSession.read(browser.header)).toBeNull();
    expect(services.cookies.rememberedDevices.read(browser.header)).toEqual(kept);
    const remembered = await call(signIn.action, services, browser, "/auth/sign-in", form);
    expect(remembered.status).toBe(303);
    expect(remembered.location).toBe("/my-account");
    expect(services.cookies.authSession.read(browser.header)).not.toBeNull();

    // Another browser of the customer forgets the device: this one drops it and asks the code.
    const current = services.cookies.authSession.read(browser.header)!;
    await services.identity.client.forgetDevice(current.accessToken, kept![0].deviceKey);
    await call(signOut.action, services, browser, "/auth/sign-out", {});
    const forgotten = await call(signIn.action, services, browser, "/auth/sign-in", form);
    expect(forgotten.location).toBe("/auth/confirm-sign-in");
    expect(services.cookies.rememberedDevices.read(browser.header) ?? []).toEqual([]);
    // Each code is taken once: the next one is a minute later on the phone's (and Cognito's) clock.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60_000 });
    const withCode = await call(confirmSignIn.action, services, browser, "/auth/confirm-sign-in", {
      confirmation_code: totpCode(secret, Date.now()),
    });
    expect(withCode.location).toBe("/my-account");
  }, 60_000);

  it("without the tick, the next sign-in asks for the code again", async () => {
    const services = await embeddedServices();
    const email = "sin-recordar@ejemplo.mx";
    const secret = await totpAccount(services, email);
    const browser = new Browser();
    const form = { username: email, password: PASSWORD };
    await call(signIn.action, services, browser, "/auth/sign-in", form);
    await call(confirmSignIn.action, services, browser, "/auth/confirm-sign-in", {
      confirmation_code: totpCode(secret, Date.now() + 30_000),
    });
    expect(services.cookies.rememberedDevices.read(browser.header) ?? []).toEqual([]);
    await call(signOut.action, services, browser, "/auth/sign-out", {});
    const again = await call(signIn.action, services, browser, "/auth/sign-in", form);
    expect(again.location).toBe("/auth/confirm-sign-in");
  }, 60_000);
});
