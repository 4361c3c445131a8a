import { createHmac } from "node:crypto";
import { AuthenticationHelper, DateHelper } from "amazon-cognito-identity-js";
import bigIntegerExport from "amazon-cognito-identity-js/lib/BigInteger.js";
import { CognitoError } from "./cognito-error";
import type { AuthResponse } from "./steps";

/**
 * USER_SRP_AUTH: the password never leaves this server. amazon-cognito-identity-js supplies the
 * Secure Remote Password arithmetic (large A, the password authentication key); the two
 * requests go through our own transport like every other call. A remembered device proves itself
 * the same way (DEVICE_SRP_AUTH), with its group key for the pool's name, its key for the user and
 * the random password made when it was confirmed (`deviceVerifier`).
 */

/**
 * The library's BigInteger. Node's ESM loader (the server build) gives a CommonJS module's whole
 * `exports` object as its default export, `{ default: BigInteger }`; vitest and bundlers unwrap
 * it. Taking `default` when it is there makes both work (without it every SRP proof of the
 * build failed as "Invalid SRP challenge").
 */
const BigInteger = "default" in bigIntegerExport ? bigIntegerExport.default : bigIntegerExport;

type Call = <T>(operation: string, body: object) => Promise<T>;

/** What this browser keeps of a device Cognito remembers for the account (decision 0123). */
export interface RememberedDevice {
  deviceKey: string;
  deviceGroupKey: string;
  randomPassword: string;
}

async function largeA(helper: AuthenticationHelper) {
  return new Promise<{ toString(radix: number): string }>((resolve, reject) =>
    helper.getLargeAValue((error, value) => (error ? reject(error) : resolve(value))),
  );
}

/**
 * The PASSWORD_CLAIM_SIGNATURE of one SRP round: HMAC of the pool (or device group), the user
 * (or device), the secret block and the time, keyed with the session key SRP derived.
 */
async function passwordClaim(input: {
  helper: AuthenticationHelper;
  poolName: string;
  userId: string;
  password: string;
  parameters: Record<string, string>;
  operation: string;
}) {
  const { helper, poolName, userId, password, parameters, operation } = input;
  const { SRP_B: serverB, SALT: salt, SECRET_BLOCK: secretBlock } = parameters;
  if (!serverB || !salt || !secretBlock) {
    throw new CognitoError("InvalidSrpChallenge", "Incomplete SRP challenge", 400, operation);
  }
  const key = await new Promise<Uint8Array>((resolve, reject) => {
    try {
      helper.getPasswordAuthenticationKey(
        userId,
        password,
        new BigInteger(serverB, 16),
        new BigInteger(salt, 16),
        (error, hkdf) => (error ? reject(error) : resolve(hkdf)),
      );
    } catch (error) {
      // B ≡ 0 or U = 0: a broken or hostile answer, refused as a failed sign-in.
      reject(error);
    }
  }).catch(() => {
    throw new CognitoError("InvalidSrpChallenge", "Invalid SRP challenge", 400, operation);
  });
  const timestamp = new DateHelper().getNowString();
  const signature = createHmac("sha256", Buffer.from(key))
    .update(
      Buffer.concat([
        Buffer.from(poolName, "utf8"),
        Buffer.from(userId, "utf8"),
        Buffer.from(secretBlock, "base64"),
        Buffer.from(timestamp, "utf8"),
      ]),
    )
    .digest("base64");
  return { secretBlock, timestamp, signature };
}

export async function srpPasswordVerifier(input: {
  call: Call;
  /** The pool and app client (cognito.server.ts's target), named here to keep imports one-way. */
  target: { userPoolId: string; clientId: string };
  username: string;
  password: string;
  /** A remembered device's key: Cognito may then skip the second factor (DEVICE_SRP_AUTH). */
  deviceKey?: string;
  /**
   * How SRP_A reaches Cognito when not by InitiateAuth USER_SRP_AUTH: the first-factor choice
   * answers SELECT_CHALLENGE with PASSWORD_SRP and SRP_A.
   */
  start?: (srpA: string) => Promise<AuthResponse>;
}): Promise<AuthResponse> {
  const { call, target, username, password, deviceKey } = input;
  const poolName = target.userPoolId.split("_")[1] ?? target.userPoolId;
  const helper = new AuthenticationHelper(poolName);
  const a = await largeA(helper);

  const started = input.start
    ? await input.start(a.toString(16))
    : await call<AuthResponse>("InitiateAuth", {
        AuthFlow: "USER_SRP_AUTH",
        ClientId: target.clientId,
        AuthParameters: {
          USERNAME: username,
          SRP_A: a.toString(16),
          ...(deviceKey ? { DEVICE_KEY: deviceKey } : {}),
        },
      });
  if (started.ChallengeName !== "PASSWORD_VERIFIER") return started;

  const parameters = started.ChallengeParameters ?? {};
  const userId = parameters.USER_ID_FOR_SRP;
  if (!userId) {
    throw new CognitoError("InvalidSrpChallenge", "Incomplete SRP challenge", 400, "InitiateAuth");
  }
  const claim = await passwordClaim({
    helper,
    poolName,
    userId,
    password,
    parameters,
    operation: "InitiateAuth",
  });
  const answered = await call<AuthResponse>("RespondToAuthChallenge", {
    ClientId: target.clientId,
    ChallengeName: "PASSWORD_VERIFIER",
    Session: started.Session,
    ChallengeResponses: {
      USERNAME: userId,
      PASSWORD_CLAIM_SECRET_BLOCK: claim.secretBlock,
      TIMESTAMP: claim.timestamp,
      PASSWORD_CLAIM_SIGNATURE: claim.signature,
      ...(deviceKey ? { DEVICE_KEY: deviceKey } : {}),
    },
  });
  // Later challenges must be answered with Cognito's own user name, not the email.
  return {
    ...answered,
    ChallengeParameters: { USER_ID_FOR_SRP: userId, ...answered.ChallengeParameters },
  };
}

/**
 * DEVICE_SRP_AUTH → DEVICE_PASSWORD_VERIFIER: the remembered device proves it holds the random
 * password whose verifier ConfirmDevice gave Cognito. Tokens come back (no second factor).
 */
export async function answerDeviceChallenge(input: {
  call: Call;
  clientId: string;
  /** Cognito's user name (USER_ID_FOR_SRP), or the e-mail when Cognito gave none. */
  username: string;
  session: string;
  device: RememberedDevice;
}): Promise<AuthResponse> {
  const { call, clientId, username, session, device } = input;
  const helper = new AuthenticationHelper(device.deviceGroupKey);
  const a = await largeA(helper);
  const verifier = await call<AuthResponse>("RespondToAuthChallenge", {
    ClientId: clientId,
    ChallengeName: "DEVICE_SRP_AUTH",
    Session: session,
    ChallengeResponses: { USERNAME: username, DEVICE_KEY: device.deviceKey, SRP_A: a.toString(16) },
  });
  if (verifier.ChallengeName !== "DEVICE_PASSWORD_VERIFIER") return verifier;
  const claim = await passwordClaim({
    helper,
    poolName: device.deviceGroupKey,
    userId: device.deviceKey,
    password: device.randomPassword,
    parameters: verifier.ChallengeParameters ?? {},
    operation: "RespondToAuthChallenge",
  });
  return call<AuthResponse>("RespondToAuthChallenge", {
    ClientId: clientId,
    ChallengeName: "DEVICE_PASSWORD_VERIFIER",
    Session: verifier.Session,
    ChallengeResponses: {
      USERNAME: username,
      PASSWORD_CLAIM_SECRET_BLOCK: claim.secretBlock,
      TIMESTAMP: claim.timestamp,
      PASSWORD_CLAIM_SIGNATURE: claim.signature,
      DEVICE_KEY: device.deviceKey,
    },
  });
}

/**
 * A device to confirm (NewDeviceMetadata): a random password, and its SRP verifier and salt for
 * ConfirmDevice (base64, as amazon-cognito-identity-js sends them). The password stays with the
 * browser, sealed; Cognito only ever sees the verifier.
 */
export async function deviceVerifier(
  deviceGroupKey: string,
  deviceKey: string,
): Promise<{ randomPassword: string; PasswordVerifier: string; Salt: string }> {
  const helper = new AuthenticationHelper(deviceGroupKey);
  await new Promise<void>((resolve, reject) =>
    helper.generateHashDevice(deviceGroupKey, deviceKey, (error) =>
      error ? reject(error) : resolve(),
    ),
  );
  return {
    randomPassword: helper.getRandomPassword(),
    PasswordVerifier: Buffer.from(helper.getVerifierDevices(), "hex").toString("base64"),
    Salt: Buffer.from(helper.getSaltDevices(), "hex").toString("base64"),
  };
}
