import * as z from "zod";
import type { SealedCookieSpec } from "~/lib/sealed-cookie.server";
import { isCognitoError } from "./cognito-error";
import { deviceVerifier, type RememberedDevice } from "./srp.server";
import type { AuthenticationResult } from "./steps";
import type { RequestContext } from "~/context";

/**
 * Remembered devices (decision 0123): after a sign-in that passed a second factor, a customer
 * who ticked "Recordar este dispositivo" has this browser confirmed with Cognito (ConfirmDevice
 * with the SRP verifier of a random password, then UpdateDeviceStatus "remembered"). The device
 * key, group key and random password stay in this browser only, sealed in their own HttpOnly
 * cookie, which signing out leaves in place: the next sign-in from here answers DEVICE_SRP_AUTH
 * and skips the second factor. Forgetting the device (the account's page) removes it.
 */

/** How long a browser keeps its device: Cognito forgets nothing by itself, a browser may. */
export const REMEMBERED_DEVICE_MAX_AGE_SECONDS = 365 * 24 * 3600;
/** Accounts one browser remembers at once (a shared family computer); the oldest goes first. */
const MAX_DEVICES_PER_BROWSER = 4;

export interface BrowserDevice extends RememberedDevice {
  /** The e-mail typed at sign-in (lower case): the device is offered only to that account. */
  username: string;
  /** The account's Cognito `sub`: the account page marks this browser's device. */
  sub: string;
}

const browserDeviceSchema: z.ZodType<BrowserDevice> = z.object({
  username: z.string().min(1).max(256),
  sub: z.string().min(1).max(128),
  deviceKey: z.string().min(1).max(64),
  deviceGroupKey: z.string().min(1).max(64),
  randomPassword: z.string().min(16).max(128),
});

export const rememberedDevicesCookieSpec: SealedCookieSpec<BrowserDevice[]> = {
  name: "auth_devices",
  maxAgeSeconds: REMEMBERED_DEVICE_MAX_AGE_SECONDS,
  schema: z.array(browserDeviceSchema).max(MAX_DEVICES_PER_BROWSER),
};

function browserDevices(context: RequestContext): BrowserDevice[] {
  return context.jar.get(context.cookies.rememberedDevices) ?? [];
}

function keep(context: RequestContext, devices: BrowserDevice[]) {
  if (devices.length === 0) context.jar.clear(context.cookies.rememberedDevices);
  else context.jar.set(context.cookies.rememberedDevices, devices.slice(-MAX_DEVICES_PER_BROWSER));
}

/** The device this browser keeps for the account signing in with this e-mail, if any. */
export function rememberedDeviceFor(
  context: RequestContext,
  username: string,
): BrowserDevice | null {
  const wanted = username.trim().toLowerCase();
  return browserDevices(context).find((device) => device.username === wanted) ?? null;
}

/** This browser's device key for the signed-in account (the account page marks it). */
export function thisBrowsersDeviceKey(context: RequestContext, sub: string): string | null {
  return browserDevices(context).find((device) => device.sub === sub)?.deviceKey ?? null;
}

/** Drops what this browser keeps of a device (forgotten, or unknown to Cognito). */
export function dropBrowserDevice(context: RequestContext, deviceKey: string) {
  const devices = browserDevices(context);
  const left = devices.filter((device) => device.deviceKey !== deviceKey);
  if (left.length !== devices.length) keep(context, left);
}

/** Drops every device this browser keeps for an account (all its devices were forgotten). */
export function dropBrowserDevicesOf(context: RequestContext, sub: string) {
  const devices = browserDevices(context);
  const left = devices.filter((device) => device.sub !== sub);
  if (left.length !== devices.length) keep(context, left);
}

/**
 * Cognito's answer to a device it does not know (forgotten, or removed by an administrator):
 * ResourceNotFoundException naming the device. The spec: clear the stored device and retry.
 */
export function isUnknownDevice(error: unknown): boolean {
  return (
    isCognitoError(error) &&
    error.code === "ResourceNotFoundException" &&
    /device/i.test(error.message)
  );
}

/** What ConfirmDevice is told this browser is called: its user agent, as Amplify sends it. */
function deviceName(userAgent: string | null): string {
  // Cognito takes up to 1 024 characters; a user agent is rarely past 300.
  const name = (userAgent ?? "").replace(/[^\x20-\x7e]/g, "").slice(0, 1024);
  return name || "Navegador";
}

/**
 * Confirms and remembers the device Cognito saw at this sign-in, and keeps it in this browser.
 * A failure costs the customer nothing but the next second factor: it is logged, not shown.
 */
export async function rememberThisDevice(
  context: RequestContext,
  input: {
    result: AuthenticationResult;
    username: string;
    sub: string;
    userAgent: string | null;
  },
): Promise<boolean> {
  const metadata = input.result.NewDeviceMetadata;
  if (!metadata?.DeviceKey || !metadata.DeviceGroupKey) {
    context.logger.info(
      { requestId: context.requestId },
      "device not remembered: the identity service tracks no devices (pool setting)",
    );
    return false;
  }
  const { client } = context.identity;
  try {
    const verifier = await deviceVerifier(metadata.DeviceGroupKey, metadata.DeviceKey);
    await client.confirmDevice({
      accessToken: input.result.AccessToken,
      deviceKey: metadata.DeviceKey,
      verifier: { PasswordVerifier: verifier.PasswordVerifier, Salt: verifier.Salt },
      deviceName: deviceName(input.userAgent),
    });
    await client.updateDeviceStatus(input.result.AccessToken, metadata.DeviceKey, "remembered");
    const username = input.username.trim().toLowerCase();
    keep(context, [
      ...browserDevices(context).filter((device) => device.username !== username),
      {
        username,
        sub: input.sub,
        deviceKey: metadata.DeviceKey,
        deviceGroupKey: metadata.DeviceGroupKey,
        randomPassword: verifier.randomPassword,
      },
    ]);
    return true;
  } catch (error) {
    context.logger.warn({
      msg: "device not remembered",
      requestId: context.requestId,
      code: isCognitoError(error) ? error.code : "unexpected",
    });
    return false;
  }
}
