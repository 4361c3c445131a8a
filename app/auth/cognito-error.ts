import { NETWORK_ERROR } from "./errors";

/** Any failure of a call: a Cognito exception, or `NetworkError` when no answer came. */
export class CognitoError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly operation: string,
  ) {
    super(message);
    this.name = "CognitoError";
  }

  get isNetwork(): boolean {
    return this.code === NETWORK_ERROR;
  }
}

/**
 * True for a CognitoError. Not `instanceof`: server.ts and the server build are separate bundles,
 * each with its own copy of the class.
 */
export function isCognitoError(error: unknown): error is CognitoError {
  return (
    error instanceof Error &&
    error.name === "CognitoError" &&
    typeof (error as Partial<CognitoError>).code === "string"
  );
}
