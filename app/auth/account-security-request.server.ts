import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import * as z from "zod";
import { setFlash } from "~/lib/flash.server";
import { isCognitoError } from "./cognito-error";
import { deviceAttribute, type DeviceDescription } from "./cognito.server";
import { describeUserAgent } from "./device-name";
import { mapCognitoError, type CognitoOperation } from "./errors";
import { authT, cognitoErrorReply, errorReply, invalidReply, type Replyable } from "./flow.server";
import { sessionEnded } from "./mfa-preference-request.server";
import { forgetPasskeyUses, passkeyUses } from "./passkey-uses.server";
import {
  dropBrowserDevice,
  dropBrowserDevicesOf,
  isUnknownDevice,
  thisBrowsersDeviceKey,
} from "./remembered-devices.server";
import { identifierSchema, passkeyCredentialSchema } from "./schemas";
import { requireRecentAuthentication } from "./reauth.server";
import { noticeSecurityChange } from "./security-notices.server";
import { signOutEverywhere } from "./sign-out-everywhere.server";
import { authPath } from "./steps";
import type { SignedIn } from "./session.server";
import type { RequestContext } from "~/context";

/**
 * The account's sign-in security page (/my-account/seguridad): its passkeys (decision 0122) and
 * its remembered devices (decision 0123), each listed from Cognito and removed with a plain
 * form; creating a passkey is the one part that needs the browser (its ceremony).
 */

export const SECURITY_PATH = "/my-account/seguridad";

export interface PasskeyRow {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface DeviceRow {
  key: string;
  browser: string | null;
  system: string | null;
  lastSignInAt: string | null;
  thisBrowser: boolean;
}

const epochToIso = (seconds: number | undefined) =>
  typeof seconds === "number" && Number.isFinite(seconds)
    ? new Date(seconds * 1000).toISOString()
    : null;

/** Whether Cognito says the device is remembered (only those skip the second factor). */
function isRemembered(device: DeviceDescription) {
  return deviceAttribute(device, "dev:device_remembered_status") === "remembered";
}

/** A token Cognito no longer takes ends the session; anything else is "could not read". */
async function unlessSessionOver(
  context: RequestContext,
  error: unknown,
  operation: CognitoOperation,
) {
  if (
    isCognitoError(error) &&
    mapCognitoError(error.code, error.message, operation).status === 401
  ) {
    throw await sessionEnded(context);
  }
  context.logger.warn({
    msg: "account security list not read",
    operation,
    requestId: context.requestId,
    code: isCognitoError(error) ? error.code : "unexpected",
  });
  return null;
}

export async function loadAccountSecurity(context: RequestContext, signedIn: SignedIn) {
  const { client } = context.identity;
  const { config } = context;
  const { sub } = signedIn.customer;
  const [credentials, devices, uses] = await Promise.all([
    config.PASSKEYS_ENABLED
      ? client
          .listWebAuthnCredentials(signedIn.accessToken)
          .catch((error: unknown) => unlessSessionOver(context, error, "ListWebAuthnCredentials"))
      : [],
    config.REMEMBERED_DEVICES_ENABLED
      ? client
          .listDevices(signedIn.accessToken)
          .catch((error: unknown) => unlessSessionOver(context, error, "ListDevices"))
      : [],
    config.PASSKEYS_ENABLED ? passkeyUses(context.db, sub).catch(() => new Map()) : new Map(),
  ]);
  const browserDevice = thisBrowsersDeviceKey(context, sub);
  const passkeys: PasskeyRow[] | null = credentials
    ? credentials
        .map((credential) => ({
          id: credential.CredentialId,
          name: credential.FriendlyCredentialName,
          createdAt: epochToIso(credential.CreatedAt) ?? new Date(0).toISOString(),
          lastUsedAt: (uses.get(credential.CredentialId) as string | undefined) ?? null,
        }))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    : null;
  const rememberedDevices: DeviceRow[] | null = devices
    ? devices.filter(isRemembered).map((device) => ({
        key: device.DeviceKey,
        ...describeUserAgent(deviceAttribute(device, "device_name") ?? ""),
        lastSignInAt: epochToIso(device.DeviceLastAuthenticatedDate ?? device.DeviceCreateDate),
        thisBrowser: device.DeviceKey === browserDevice,
      }))
    : null;
  return {
    passkeysEnabled: config.PASSKEYS_ENABLED,
    devicesEnabled: config.REMEMBERED_DEVICES_ENABLED,
    passkeys,
    devices: rememberedDevices,
  };
}

function done(context: RequestContext, flashKey: string) {
  setFlash(context, { kind: "success", key: `auth:flash.${flashKey}` });
  return redirect(SECURITY_PATH, { status: 303 });
}

async function refused(
  context: RequestContext,
  submission: Replyable,
  error: unknown,
  operation: CognitoOperation,
) {
  if (
    isCognitoError(error) &&
    mapCognitoError(error.code, error.message, operation).status === 401
  ) {
    return sessionEnded(context);
  }
  return cognitoErrorReply(context, submission, error, operation);
}

const intentOnly = () => z.object({ intent: z.string().optional() });

export async function submitAccountSecurity(
  context: RequestContext,
  request: Request,
  signedIn: SignedIn,
) {
  const formData = await request.formData();
  const intent = formData.get("intent");
  const { client } = context.identity;
  const { accessToken, customer } = signedIn;

  if (
    context.config.PASSKEYS_ENABLED &&
    (intent === "passkey-create-start" || intent === "passkey-create-answer")
  ) {
    // A passkey outlives a password reset: only a customer who just proved who they are adds one.
    const reauth = requireRecentAuthentication(context, SECURITY_PATH);
    if (reauth) return reauth;
  }
  if (context.config.PASSKEYS_ENABLED && intent === "passkey-create-start") {
    const submission = parseWithZod(formData, { schema: intentOnly() });
    try {
      const started = await client.startWebAuthnRegistration(accessToken);
      return data({ passkeyCreationOptions: started.CredentialCreationOptions });
    } catch (error) {
      return refused(context, submission, error, "StartWebAuthnRegistration");
    }
  }
  if (context.config.PASSKEYS_ENABLED && intent === "passkey-create-answer") {
    const submission = parseWithZod(formData, { schema: passkeyCredentialSchema() });
    if (submission.status !== "success") return invalidReply(submission);
    try {
      await client.completeWebAuthnRegistration(accessToken, submission.value.credential.value);
    } catch (error) {
      return refused(context, submission, error, "CompleteWebAuthnRegistration");
    }
    await noticeSecurityChange(context, customer.email, "passkey_added");
    return done(context, "passkeyCreated");
  }
  if (context.config.PASSKEYS_ENABLED && intent === "delete-passkey") {
    const submission = parseWithZod(formData, { schema: identifierSchema("credential_id") });
    if (submission.status !== "success") return invalidReply(submission);
    const credentialId = String(submission.value.credential_id);
    try {
      await client.deleteWebAuthnCredential(accessToken, credentialId);
    } catch (error) {
      // Not one of this account's passkeys (deleted from another tab, or never its own): the
      // customer's 404 with the list as it is, not the identity service's 503.
      if (isCognitoError(error) && error.code === "ResourceNotFoundException") {
        return errorReply(submission, "passkeyNotFound", 404);
      }
      return refused(context, submission, error, "DeleteWebAuthnCredential");
    }
    await forgetPasskeyUses(context.db, customer.sub, credentialId).catch(() => undefined);
    return done(context, "passkeyDeleted");
  }
  if (context.config.REMEMBERED_DEVICES_ENABLED && intent === "forget-device") {
    const submission = parseWithZod(formData, { schema: identifierSchema("device_key") });
    if (submission.status !== "success") return invalidReply(submission);
    const deviceKey = String(submission.value.device_key);
    try {
      await client.forgetDevice(accessToken, deviceKey);
    } catch (error) {
      // Already forgotten (another browser, an administrator): what was asked is so.
      if (!isUnknownDevice(error)) return refused(context, submission, error, "ForgetDevice");
    }
    dropBrowserDevice(context, deviceKey);
    return done(context, "deviceForgotten");
  }
  if (context.config.REMEMBERED_DEVICES_ENABLED && intent === "forget-all-devices") {
    const submission = parseWithZod(formData, { schema: intentOnly() });
    try {
      const devices = await client.listDevices(accessToken);
      for (const device of devices.filter(isRemembered)) {
        await client.forgetDevice(accessToken, device.DeviceKey).catch((error: unknown) => {
          if (!isUnknownDevice(error)) throw error;
        });
      }
    } catch (error) {
      return refused(context, submission, error, "ForgetDevice");
    }
    dropBrowserDevicesOf(context, customer.sub);
    return done(context, "devicesForgotten");
  }
  if (intent === "sign-out-everywhere") {
    // Every session ends, this one too: whoever fears an intruder expects no session left, and
    // Cognito's global sign-out has made this one's tokens useless anyway (decision 0134).
    await signOutEverywhere(context);
    setFlash(context, { kind: "success", key: "auth:flash.signedOutEverywhere" });
    return redirect(authPath("sign-in"), { status: 303 });
  }
  const submission = parseWithZod(formData, { schema: intentOnly() });
  return invalidReply(submission, { formErrors: [authT()("errors.unknown")] });
}
