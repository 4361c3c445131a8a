import { createHmac } from "node:crypto";
import { AuthenticationHelper, DateHelper } from "amazon-cognito-identity-js";
import bigIntegerExport from "amazon-cognito-identity-js/lib/BigInteger.js";
import { CognitoError } from "./cognito-error";
import type { AuthResponse } from "./steps";

/**
 * USER_SRP_AUTH: the password never leaves this server. amazon-cognito-identity-js supplies the
 * Secure Remote Password arithmetic (large A, the password authentication key); the two
 * requests go through our own transport like every other call.
 */
/**
 * The library's BigInteger. Node's ESM loader (the server build) gives a CommonJS module's whole
 * `exports` object as its default export, `{ default: BigInteger }`; vitest and bundlers unwrap
 * it. Taking `default` when it is there makes both work (without it every SRP proof of the
 * build failed as "Invalid SRP challenge").
 */
const BigInteger = "default" in bigIntegerExport ? bigIntegerExport.default : bigIntegerExport;

export async function srpPasswordVerifier(input: {
  call: <T>(operation: string, body: object) => Promise<T>;
  /** The pool and app client (cognito.server.ts's target), named here to keep imports one-way. */
  target: { userPoolId: string; clientId: string };
  username: string;
  password: string;
}): Promise<AuthResponse> {
  const { call, target, username, password } = input;
  const poolName = target.userPoolId.split("_")[1] ?? target.userPoolId;
  const helper = new AuthenticationHelper(poolName);
  const largeA = await new Promise<{ toString(radix: number): string }>((resolve, reject) =>
    helper.getLargeAValue((error, value) => (error ? reject(error) : resolve(value))),
  );

  const started = await call<AuthResponse>("InitiateAuth", {
    AuthFlow: "USER_SRP_AUTH",
    ClientId: target.clientId,
    AuthParameters: { USERNAME: username, SRP_A: largeA.toString(16) },
  });
  if (started.ChallengeName !== "PASSWORD_VERIFIER") return started;

  const parameters = started.ChallengeParameters ?? {};
  const {
    USER_ID_FOR_SRP: userId,
    SRP_B: serverB,
    SALT: salt,
    SECRET_BLOCK: secretBlock,
  } = parameters;
  if (!userId || !serverB || !salt || !secretBlock) {
    throw new CognitoError("InvalidSrpChallenge", "Incomplete SRP challenge", 400, "InitiateAuth");
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
    throw new CognitoError("InvalidSrpChallenge", "Invalid SRP challenge", 400, "InitiateAuth");
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

  const answered = await call<AuthResponse>("RespondToAuthChallenge", {
    ClientId: target.clientId,
    ChallengeName: "PASSWORD_VERIFIER",
    Session: started.Session,
    ChallengeResponses: {
      USERNAME: userId,
      PASSWORD_CLAIM_SECRET_BLOCK: secretBlock,
      TIMESTAMP: timestamp,
      PASSWORD_CLAIM_SIGNATURE: signature,
    },
  });
  // Later challenges must be answered with Cognito's own user name, not the email.
  return {
    ...answered,
    ChallengeParameters: { USER_ID_FOR_SRP: userId, ...answered.ChallengeParameters },
  };
}
