import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import {
  passwordVerifier,
  startSrpRound,
  type SrpRound,
} from "../../../app/auth/emulator/device-srp.server";

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

/**
 * Cognito's half of USER_SRP_AUTH for one user: answers InitiateAuth with SRP_B, then checks the
 * PASSWORD_CLAIM_SIGNATURE of RespondToAuthChallenge (the emulator's SRP round, which a device's
 * proof uses too). Only the right password passes.
 */
export function srpServer(options: {
  poolName: string;
  userId: string;
  password: string;
  tokens: unknown;
}) {
  const saltHex = BigInt(`0x${randomBytes(16).toString("hex")}`).toString(16);
  const verifier = passwordVerifier({
    poolName: options.poolName,
    userName: options.userId,
    password: options.password,
    saltHex,
  });
  let round: SrpRound | null = null;
  return {
    initiateAuth(body: Record<string, unknown>) {
      const parameters = body.AuthParameters as Record<string, string>;
      round = startSrpRound({
        verifier,
        saltHex,
        poolName: options.poolName,
        userName: options.userId,
        srpA: parameters.SRP_A ?? "",
      });
      return {
        status: 200,
        body: {
          ChallengeName: "PASSWORD_VERIFIER",
          ChallengeParameters: {
            ...round?.parameters,
            USERNAME: options.userId,
            USER_ID_FOR_SRP: options.userId,
          },
        },
      };
    },
    respondToAuthChallenge(body: Record<string, unknown>) {
      const responses = body.ChallengeResponses as Record<string, string>;
      const ok =
        responses.USERNAME === options.userId &&
        /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{1,2} \d{2}:\d{2}:\d{2} UTC \d{4}$/.test(
          responses.TIMESTAMP ?? "",
        ) &&
        round?.verify(responses) === true;
      return ok
        ? { status: 200, body: options.tokens }
        : fixture("InitiateAuth.NotAuthorized.400.json");
    },
  };
}
