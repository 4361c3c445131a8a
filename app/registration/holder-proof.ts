/**
 * Where the proof of an order's holder stands (decision 0139), as the pages show it: the types
 * are here, where a component may read them; the rows are in order-holders.server.ts.
 */

/**
 * How long an activated line waits for its registration (the holder's proof, the validation
 * service's answer) before it is left without one; the order's page and e-mail say it.
 */
export const REGISTRATION_GIVE_UP_MS = 72 * 60 * 60_000;

/** Refused proofs that end the online path for an order: its lines are then registered in person. */
export const ORDER_HOLDER_PROOF_ATTEMPTS = 3;

export type OrderHolderProof =
  | { state: "to-prove"; attemptsLeft: number }
  | { state: "proved"; provedAt: string }
  /** Refused ORDER_HOLDER_PROOF_ATTEMPTS times: no more online tries for this order. */
  | { state: "ended" };

/** What the order's page says of its holder's proof. */
export interface OrderHolderNotice {
  holderName: string;
  proof: OrderHolderProof;
  proofPath: string;
}
