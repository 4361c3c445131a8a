import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const FIXTURES = path.join(__dirname, "../../fixtures/cognito");

/** A recorded Cognito response: `<Operation>.<case>.<status>.json`. */
export function fixture(name: string): { status: number; body: unknown } {
  const status = Number(/\.(\d{3})\.json$/.exec(name)?.[1] ?? 200);
  return { status, body: JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8")) };
}

export interface StubCall {
  operation: string;
  body: Record<string, unknown>;
}

export type StubAnswer =
  | string
  | ((
      body: Record<string, unknown>,
    ) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>);

/**
 * A tiny stand-in for cognito-idp.<region>.amazonaws.com: answers each operation with a recorded
 * response, with Cognito's headers, and records what it was asked.
 */
export async function startCognitoStub(answers: Record<string, StubAnswer | StubAnswer[]> = {}) {
  const calls: StubCall[] = [];
  const routes = new Map(
    Object.entries(answers).map(([op, answer]) => [
      op,
      Array.isArray(answer) ? [...answer] : [answer],
    ]),
  );
  const server: Server = createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk) => (raw += chunk));
    request.on("end", async () => {
      const operation = String(request.headers["x-amz-target"] ?? "").split(".")[1] ?? "";
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      calls.push({ operation, body });
      const queue = routes.get(operation);
      const answer = queue && (queue.length > 1 ? queue.shift()! : queue[0]);
      const { status, body: payload } = !answer
        ? {
            status: 400,
            body: {
              __type: "InvalidParameterException",
              message: `stub has no answer for ${operation}`,
            },
          }
        : typeof answer === "string"
          ? fixture(answer)
          : await answer(body);
      const headers: Record<string, string> = {
        "Content-Type": "application/x-amz-json-1.1",
        "x-amzn-RequestId": randomUUID(),
      };
      const type = (payload as { __type?: string }).__type;
      if (status >= 400 && type) headers["x-amzn-ErrorType"] = `${type}:`;
      response.writeHead(status, headers).end(JSON.stringify(payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    calls,
    operations: () => calls.map((call) => call.operation),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A server that accepts connections and never answers: the "slow identity service". */
export async function startSilentServer() {
  const server = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// --- The server side of Cognito's SRP (RFC 5054 group 3072, as amazon-cognito-identity-js expects) ---

const N = BigInt(
  "0xFFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA051015728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200CBBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF",
);
const g = 2n;

function padHex(value: bigint): string {
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return /^[89a-f]/i.test(hex) ? `00${hex}` : hex;
}
const sha256Hex = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");
const hexHash = (hex: string) => sha256Hex(Buffer.from(hex, "hex"));
function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}
const k = BigInt(`0x${hexHash(padHex(N) + padHex(g))}`);

/**
 * Cognito's half of USER_SRP_AUTH for one user: answers InitiateAuth with SRP_B, then checks the
 * PASSWORD_CLAIM_SIGNATURE of RespondToAuthChallenge. Only the right password passes.
 */
export function srpServer(options: {
  poolName: string;
  userId: string;
  password: string;
  tokens: unknown;
}) {
  const salt = BigInt(`0x${randomBytes(16).toString("hex")}`);
  const x = BigInt(
    `0x${hexHash(padHex(salt) + sha256Hex(`${options.poolName}${options.userId}:${options.password}`))}`,
  );
  const v = modPow(g, x, N);
  const b = BigInt(`0x${randomBytes(32).toString("hex")}`);
  const B = (k * v + modPow(g, b, N)) % N;
  const secretBlock = randomBytes(64).toString("base64");
  let A = 0n;
  return {
    initiateAuth(body: Record<string, unknown>) {
      const parameters = body.AuthParameters as Record<string, string>;
      A = BigInt(`0x${parameters.SRP_A}`);
      return {
        status: 200,
        body: {
          ChallengeName: "PASSWORD_VERIFIER",
          ChallengeParameters: {
            SALT: salt.toString(16),
            SECRET_BLOCK: secretBlock,
            SRP_B: B.toString(16),
            USERNAME: options.userId,
            USER_ID_FOR_SRP: options.userId,
          },
        },
      };
    },
    respondToAuthChallenge(body: Record<string, unknown>) {
      const responses = body.ChallengeResponses as Record<string, string>;
      const u = BigInt(`0x${hexHash(padHex(A) + padHex(B))}`);
      const S = modPow((A * modPow(v, u, N)) % N, b, N);
      const prk = createHmac("sha256", Buffer.from(padHex(u), "hex"))
        .update(Buffer.from(padHex(S), "hex"))
        .digest();
      const key = createHmac("sha256", prk)
        .update(Buffer.concat([Buffer.from("Caldera Derived Key"), Buffer.from([1])]))
        .digest()
        .subarray(0, 16);
      const expected = createHmac("sha256", key)
        .update(
          Buffer.concat([
            Buffer.from(options.poolName),
            Buffer.from(options.userId),
            Buffer.from(secretBlock, "base64"),
            Buffer.from(responses.TIMESTAMP),
          ]),
        )
        .digest("base64");
      const ok =
        responses.USERNAME === options.userId &&
        responses.PASSWORD_CLAIM_SECRET_BLOCK === secretBlock &&
        /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{1,2} \d{2}:\d{2}:\d{2} UTC \d{4}$/.test(
          responses.TIMESTAMP,
        ) &&
        responses.PASSWORD_CLAIM_SIGNATURE === expected;
      return ok
        ? { status: 200, body: options.tokens }
        : fixture("InitiateAuth.NotAuthorized.400.json");
    },
  };
}
