import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Order } from "~/checkout/orders.server";
import { confirmationPath } from "~/checkout/paths";
import { setFlash } from "~/lib/flash.server";
import { markEsimInstalled, replaceEsimCode } from "./activations.server";
import { esimChangeSchema } from "./esim-change-schema";
import type { RequestContext } from "~/context";

/** A button of another page, or tampered with: the page again, saying so where the eSIMs are. */
function unknownEsim() {
  return data({ esimProblem: "commerce:confirmation.esim.errors.unknown" }, { status: 400 });
}

/**
 * An eSIM of a paid order changed from its page, by someone the page already let see it: a new
 * code for a lost one (the old one withdrawn first), or, with the sandbox provisioner only, an
 * installation simulated as a phone would make it. The answer is the order's page again, with
 * what happened.
 */
export async function submitEsimChange(context: RequestContext, order: Order, formData: FormData) {
  const submission = parseWithZod(formData, { schema: esimChangeSchema });
  if (submission.status !== "success" || order.status !== "paid" || order.simType !== "esim") {
    return unknownEsim();
  }
  const { intent, position } = submission.value;
  const back = redirect(confirmationPath(order.ref), { status: 303 });
  if (intent === "simulate-esim-install") {
    // A real SM-DP+ tells the store itself when a phone installs a profile.
    if (!context.esim.simulatesInstallation) throw data(null, { status: 404 });
    const installed = await markEsimInstalled(context.db, order, position);
    setFlash(context, {
      kind: installed ? "success" : "info",
      key: installed
        ? "commerce:confirmation.esim.flash.simulatedInstall"
        : "commerce:confirmation.esim.flash.alreadyInstalled",
    });
    return back;
  }
  const outcome = await replaceEsimCode(context.db, context.esim, context.logger, order, position);
  if (outcome === "unknown") return unknownEsim();
  const flashes = {
    replaced: { kind: "success", key: "commerce:confirmation.esim.flash.replaced" },
    installed: { kind: "info", key: "commerce:confirmation.esim.flash.alreadyInstalled" },
    unavailable: { kind: "error", key: "commerce:confirmation.esim.flash.replaceUnavailable" },
  } as const;
  setFlash(context, flashes[outcome]);
  return back;
}
