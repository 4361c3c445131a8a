import type { Logger } from "pino";
import { CognitoError, isCognitoError } from "./cognito-error";
import { NETWORK_ERROR, type CognitoOperation } from "./errors";
import { answerDeviceChallenge, srpPasswordVerifier, type RememberedDevice } from "./srp.server";
import type { AuthenticationResult, AuthResponse } from "./steps";

/**
 * The identity service's API as Cognito documents it: a JSON POST naming the operation in
 * `X-Amz-Target`. Only SRP's arithmetic comes from amazon-cognito-identity-js (srp.server.ts);
 * every request goes through `call`, with one timeout and one error shape.
 */

/** Where requests go; for the emulator this is known only once it has started. */
export interface CognitoTarget {
  endpoint: string;
  userPoolId: string;
  clientId: string;
}

export interface CodeDeliveryDetails {
  Destination?: string;
  DeliveryMedium?: "EMAIL" | "SMS";
  AttributeName?: string;
}

export interface CognitoUser {
  Username: string;
  UserAttributes: Array<{ Name: string; Value: string }>;
  UserMFASettingList?: string[];
  PreferredMfaSetting?: string;
}

/** One passkey as ListWebAuthnCredentials describes it (CreatedAt in epoch seconds). */
export interface WebAuthnCredentialDescription {
  CredentialId: string;
  FriendlyCredentialName: string;
  RelyingPartyId: string;
  AuthenticatorAttachment?: string;
  AuthenticatorTransports: string[];
  CreatedAt: number;
}

/** One device as ListDevices describes it (dates in epoch seconds). */
export interface DeviceDescription {
  DeviceKey: string;
  DeviceAttributes?: Array<{ Name: string; Value?: string }>;
  DeviceCreateDate?: number;
  DeviceLastModifiedDate?: number;
  DeviceLastAuthenticatedDate?: number;
}

/** ConfirmDevice's proof: the SRP verifier of the device's random password, and its salt. */
export interface DeviceSecretVerifierConfig {
  PasswordVerifier: string;
  Salt: string;
}

/** Cognito's answer to USER_AUTH's first factors (PREFERRED_CHALLENGE, SELECT_CHALLENGE). */
export type FirstFactor = "PASSWORD" | "PASSWORD_SRP" | "WEB_AUTHN" | "EMAIL_OTP" | "SMS_OTP";

export type TokenOrSession = { accessToken: string } | { session: string };

export interface MfaPreference {
  SoftwareTokenMfaSettings?: { Enabled: boolean; PreferredMfa: boolean };
  SMSMfaSettings?: { Enabled: boolean; PreferredMfa: boolean };
  EmailMfaSettings?: { Enabled: boolean; PreferredMfa: boolean };
}

export interface CognitoClientOptions {
  target: () => Promise<CognitoTarget>;
  authFlow: "USER_SRP_AUTH" | "USER_PASSWORD_AUTH";
  timeoutMs: number;
  logger: Logger;
  /** For tests: the fetch to use. */
  fetch?: typeof fetch;
  /**
   * Told of every call when it ends (the server's metrics): answered, refused (Cognito said no:
   * a wrong password, a used code), or unavailable (unreachable, too slow, or its own error).
   */
  onCall?: (call: {
    operation: string;
    outcome: "ok" | "refused" | "unavailable";
    seconds: number;
  }) => void;
}

export type CognitoClient = ReturnType<typeof createCognitoClient>;

export function createCognitoClient(options: CognitoClientOptions) {
  const doFetch = options.fetch ?? fetch;

  /** Every request to the identity service, timed once for the metrics. */
  async function call<T>(operation: CognitoOperation | string, body: object): Promise<T> {
    if (!options.onCall) return request<T>(operation, body);
    const started = performance.now();
    let outcome: "ok" | "refused" | "unavailable" = "ok";
    try {
      return await request<T>(operation, body);
    } catch (error) {
      const status = isCognitoError(error) ? error.status : 0;
      outcome = status >= 400 && status < 500 ? "refused" : "unavailable";
      throw error;
    } finally {
      options.onCall({ operation, outcome, seconds: (performance.now() - started) / 1000 });
    }
  }

  async function request<T>(operation: CognitoOperation | string, body: object): Promise<T> {
    let target: CognitoTarget;
    try {
      target = await options.target();
    } catch (error) {
      options.logger.error({ err: error, operation }, "identity service not available");
      throw new CognitoError(NETWORK_ERROR, "Identity service not available", 0, operation);
    }
    let response: Response;
    try {
      response = await doFetch(target.endpoint, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-amz-json-1.1",
          "X-Amz-Target": `AWSCognitoIdentityProviderService.${operation}`,
          "Cache-Control": "no-store",
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      // Refused, reset, DNS or timeout: the customer sees the network message, never a 500.
      options.logger.warn(
        { operation, cause: error instanceof Error ? error.name : "unknown" },
        "identity service unreachable",
      );
      throw new CognitoError(NETWORK_ERROR, "Network error", 0, operation);
    }
    const text = await response.text().catch(() => "");
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      parsed = {};
    }
    if (response.ok) return parsed as T;
    const type =
      (typeof parsed.__type === "string" && parsed.__type) ||
      response.headers.get("x-amzn-errortype")?.split(":")[0] ||
      (response.status >= 500 ? "InternalErrorException" : "UnknownError");
    const code = type.includes("#") ? type.slice(type.lastIndexOf("#") + 1) : type;
    const message =
      (typeof parsed.message === "string" && parsed.message) ||
      (typeof parsed.Message === "string" && parsed.Message) ||
      "";
    options.logger.info({ operation, code, status: response.status }, "identity service refused");
    throw new CognitoError(code, message, response.status, operation);
  }

  async function clientId() {
    return (await options.target()).clientId;
  }

  function tokenOrSession(credential: TokenOrSession) {
    return "accessToken" in credential
      ? { AccessToken: credential.accessToken }
      : { Session: credential.session };
  }

  return {
    call,
    authFlow: options.authFlow,

    /**
     * Starts sign-in with email and password, by SRP or by plain password as configured. With a
     * remembered device its key goes along (DEVICE_KEY), so Cognito may answer DEVICE_SRP_AUTH
     * instead of asking for the second factor.
     */
    async signIn(
      username: string,
      password: string,
      device?: Pick<RememberedDevice, "deviceKey">,
    ): Promise<AuthResponse> {
      const target = await options.target().catch(() => null);
      if (!target) throw new CognitoError(NETWORK_ERROR, "Network error", 0, "InitiateAuth");
      if (options.authFlow === "USER_SRP_AUTH") {
        return srpPasswordVerifier({
          call,
          target,
          username,
          password,
          deviceKey: device?.deviceKey,
        });
      }
      return call<AuthResponse>("InitiateAuth", {
        AuthFlow: "USER_PASSWORD_AUTH",
        ClientId: target.clientId,
        AuthParameters: {
          USERNAME: username,
          PASSWORD: password,
          ...(device ? { DEVICE_KEY: device.deviceKey } : {}),
        },
      });
    },

    /**
     * The first-factor choice answered with the password (SELECT_CHALLENGE): by SRP with
     * USER_SRP_AUTH configured and PASSWORD_SRP offered, otherwise as PASSWORD.
     */
    async answerPasswordFactor(input: {
      username: string;
      session: string;
      password: string;
      srpOffered: boolean;
    }): Promise<AuthResponse> {
      const target = await options.target();
      const select = (responses: Record<string, string>) =>
        call<AuthResponse>("RespondToAuthChallenge", {
          ClientId: target.clientId,
          ChallengeName: "SELECT_CHALLENGE",
          Session: input.session,
          ChallengeResponses: { USERNAME: input.username, ...responses },
        });
      if (options.authFlow === "USER_SRP_AUTH" && input.srpOffered) {
        return srpPasswordVerifier({
          call,
          target,
          username: input.username,
          password: input.password,
          start: (srpA) => select({ ANSWER: "PASSWORD_SRP", SRP_A: srpA }),
        });
      }
      return select({ ANSWER: "PASSWORD", PASSWORD: input.password });
    },

    /** DEVICE_SRP_AUTH: a remembered device proves itself instead of a second factor. */
    async answerDeviceChallenge(input: {
      username: string;
      session: string;
      device: RememberedDevice;
    }): Promise<AuthResponse> {
      return answerDeviceChallenge({ call, clientId: await clientId(), ...input });
    },

    /**
     * Choice-based sign-in (USER_AUTH): with a preferred first factor Cognito answers with its
     * challenge (WEB_AUTHN: the passkey's request options) when the customer has it; without
     * one, or when it is not available, with SELECT_CHALLENGE and AvailableChallenges.
     */
    async startUserAuth(username: string, preferred?: FirstFactor): Promise<AuthResponse> {
      return call<AuthResponse>("InitiateAuth", {
        AuthFlow: "USER_AUTH",
        ClientId: await clientId(),
        AuthParameters: {
          USERNAME: username,
          ...(preferred ? { PREFERRED_CHALLENGE: preferred } : {}),
        },
      });
    },

    /** The passkey creation options (a PublicKeyCredentialCreationOptionsJSON document). */
    async startWebAuthnRegistration(accessToken: string) {
      return call<{ CredentialCreationOptions: Record<string, unknown> }>(
        "StartWebAuthnRegistration",
        { AccessToken: accessToken },
      );
    },

    /** The browser's RegistrationResponseJSON, as a document (not a string). */
    async completeWebAuthnRegistration(accessToken: string, credential: Record<string, unknown>) {
      return call<object>("CompleteWebAuthnRegistration", {
        AccessToken: accessToken,
        Credential: credential,
      });
    },

    /** Every passkey of the signed-in customer (all pages). */
    async listWebAuthnCredentials(accessToken: string): Promise<WebAuthnCredentialDescription[]> {
      const credentials: WebAuthnCredentialDescription[] = [];
      let nextToken: string | undefined;
      // Cognito pages at 20; an account with more passkeys than five pages is not a customer's.
      for (let page = 0; page < 5; page++) {
        const answer = await call<{
          Credentials?: WebAuthnCredentialDescription[];
          NextToken?: string;
        }>("ListWebAuthnCredentials", {
          AccessToken: accessToken,
          MaxResults: 20,
          ...(nextToken ? { NextToken: nextToken } : {}),
        });
        credentials.push(...(answer.Credentials ?? []));
        nextToken = answer.NextToken;
        if (!nextToken) break;
      }
      return credentials;
    },

    async deleteWebAuthnCredential(accessToken: string, credentialId: string) {
      return call<object>("DeleteWebAuthnCredential", {
        AccessToken: accessToken,
        CredentialId: credentialId,
      });
    },

    /** Confirms a device Cognito saw at sign-in (NewDeviceMetadata) with its SRP verifier. */
    async confirmDevice(input: {
      accessToken: string;
      deviceKey: string;
      verifier: DeviceSecretVerifierConfig;
      deviceName: string;
    }) {
      return call<{ UserConfirmationNecessary?: boolean }>("ConfirmDevice", {
        AccessToken: input.accessToken,
        DeviceKey: input.deviceKey,
        DeviceSecretVerifierConfig: input.verifier,
        DeviceName: input.deviceName,
      });
    },

    async updateDeviceStatus(
      accessToken: string,
      deviceKey: string,
      status: "remembered" | "not_remembered",
    ) {
      return call<object>("UpdateDeviceStatus", {
        AccessToken: accessToken,
        DeviceKey: deviceKey,
        DeviceRememberedStatus: status,
      });
    },

    /** Every device Cognito tracks for the signed-in customer (all pages). */
    async listDevices(accessToken: string): Promise<DeviceDescription[]> {
      const devices: DeviceDescription[] = [];
      let paginationToken: string | undefined;
      for (let page = 0; page < 5; page++) {
        const answer = await call<{ Devices?: DeviceDescription[]; PaginationToken?: string }>(
          "ListDevices",
          {
            AccessToken: accessToken,
            Limit: 60,
            ...(paginationToken ? { PaginationToken: paginationToken } : {}),
          },
        );
        devices.push(...(answer.Devices ?? []));
        paginationToken = answer.PaginationToken;
        if (!paginationToken) break;
      }
      return devices;
    },

    async forgetDevice(accessToken: string, deviceKey: string) {
      return call<object>("ForgetDevice", { AccessToken: accessToken, DeviceKey: deviceKey });
    },

    async respondToChallenge(input: {
      challengeName: string;
      session: string;
      responses: Record<string, string>;
    }): Promise<AuthResponse> {
      return call<AuthResponse>("RespondToAuthChallenge", {
        ClientId: await clientId(),
        ChallengeName: input.challengeName,
        Session: input.session,
        ChallengeResponses: input.responses,
      });
    },

    async refresh(refreshToken: string): Promise<AuthenticationResult> {
      const response = await call<AuthResponse>("InitiateAuth", {
        AuthFlow: "REFRESH_TOKEN_AUTH",
        ClientId: await clientId(),
        AuthParameters: { REFRESH_TOKEN: refreshToken },
      });
      if (!response.AuthenticationResult?.AccessToken || !response.AuthenticationResult.IdToken) {
        throw new CognitoError("NotAuthorizedException", "Invalid tokens", 400, "InitiateAuth");
      }
      return response.AuthenticationResult;
    },

    async signUp(input: {
      username: string;
      password: string;
      attributes: Array<{ Name: string; Value: string }>;
    }) {
      return call<{
        UserConfirmed: boolean;
        UserSub: string;
        CodeDeliveryDetails?: CodeDeliveryDetails;
        Session?: string;
      }>("SignUp", {
        ClientId: await clientId(),
        Username: input.username,
        Password: input.password,
        UserAttributes: input.attributes,
      });
    },

    /** With SignUp's session, Cognito answers a session that signs the customer in. */
    async confirmSignUp(username: string, code: string, session?: string) {
      return call<{ Session?: string }>("ConfirmSignUp", {
        ClientId: await clientId(),
        Username: username,
        ConfirmationCode: code,
        ...(session ? { Session: session } : {}),
      });
    },

    /**
     * Automatic sign-in after sign-up: USER_AUTH with ConfirmSignUp's session. Cognito takes the
     * confirmed code as the first factor, so no password is asked for or kept.
     */
    async signInAfterSignUp(username: string, session: string): Promise<AuthResponse> {
      return call<AuthResponse>("InitiateAuth", {
        AuthFlow: "USER_AUTH",
        ClientId: await clientId(),
        AuthParameters: { USERNAME: username },
        Session: session,
      });
    },

    async resendConfirmationCode(username: string) {
      return call<{ CodeDeliveryDetails?: CodeDeliveryDetails }>("ResendConfirmationCode", {
        ClientId: await clientId(),
        Username: username,
      });
    },

    async forgotPassword(username: string) {
      return call<{ CodeDeliveryDetails?: CodeDeliveryDetails }>("ForgotPassword", {
        ClientId: await clientId(),
        Username: username,
      });
    },

    async confirmForgotPassword(username: string, code: string, password: string) {
      return call<object>("ConfirmForgotPassword", {
        ClientId: await clientId(),
        Username: username,
        ConfirmationCode: code,
        Password: password,
      });
    },

    async getUser(accessToken: string) {
      return call<CognitoUser>("GetUser", { AccessToken: accessToken });
    },

    async getUserAttributeVerificationCode(accessToken: string, attributeName: string) {
      return call<{ CodeDeliveryDetails?: CodeDeliveryDetails }>(
        "GetUserAttributeVerificationCode",
        { AccessToken: accessToken, AttributeName: attributeName },
      );
    },

    async verifyUserAttribute(accessToken: string, attributeName: string, code: string) {
      return call<object>("VerifyUserAttribute", {
        AccessToken: accessToken,
        AttributeName: attributeName,
        Code: code,
      });
    },

    async associateSoftwareToken(credential: TokenOrSession) {
      return call<{ SecretCode: string; Session?: string }>(
        "AssociateSoftwareToken",
        tokenOrSession(credential),
      );
    },

    async verifySoftwareToken(credential: TokenOrSession, code: string, deviceName: string) {
      return call<{ Status?: "SUCCESS" | "ERROR"; Session?: string }>("VerifySoftwareToken", {
        ...tokenOrSession(credential),
        UserCode: code,
        FriendlyDeviceName: deviceName,
      });
    },

    async setUserMfaPreference(accessToken: string, preference: MfaPreference) {
      return call<object>("SetUserMFAPreference", { AccessToken: accessToken, ...preference });
    },

    /** Revokes the refresh token and the access tokens it issued (where the client allows it). */
    async revokeToken(refreshToken: string) {
      return call<object>("RevokeToken", { ClientId: await clientId(), Token: refreshToken });
    },

    /**
     * Signs the user out of every session: every refresh token the user holds is revoked, and
     * the access and ID tokens issued before stop working at Cognito (decision 0134).
     */
    async globalSignOut(accessToken: string) {
      return call<object>("GlobalSignOut", { AccessToken: accessToken });
    },
  };
}

/** A device attribute (device_name, dev:device_remembered_status…) from ListDevices. */
export function deviceAttribute(device: DeviceDescription, name: string): string | undefined {
  return device.DeviceAttributes?.find((attribute) => attribute.Name === name)?.Value;
}

/** GetUser's attribute list as a record. */
export function attributesRecord(
  user: Pick<CognitoUser, "UserAttributes">,
): Record<string, string> {
  return Object.fromEntries(user.UserAttributes.map(({ Name, Value }) => [Name, Value]));
}
