import { maskPhoneNumber } from "./numbers";
import type { PortabilityRequest } from "./requests.server";

/** What the page shows of a request: the line masked, never the NIP. */
export interface RequestView {
  folio: string;
  status: PortabilityRequest["status"];
  scheduledFor: string | null;
  rejectionReason: string | null;
  line: string;
  carrier: string;
  createdAt: string;
  /** Only on the page right after submitting, in the browser that submitted. */
  email: string | null;
}

export function toRequestView(request: PortabilityRequest, withEmail: boolean): RequestView {
  return {
    folio: request.folio,
    status: request.status,
    scheduledFor: request.scheduledFor,
    rejectionReason: request.rejectionReason,
    line: maskPhoneNumber(request.phoneNumber),
    carrier: request.currentCarrier,
    createdAt: request.createdAt,
    email: withEmail ? request.email : null,
  };
}
