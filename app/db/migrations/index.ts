import type { Migration } from "kysely";
import * as commerce from "./0001-commerce";
import * as portability from "./0002-portability";
import * as topups from "./0003-topups";
import * as revokedAccess from "./0004-revoked-access";
import * as paymentMethods from "./0005-payment-methods";
import * as recargaAndEsim from "./0006-recarga-and-esim";
import * as mailAndOperations from "./0007-mail-and-operations";
import * as orderLinksAndEsimState from "./0008-order-links-and-esim-state";
import * as bssSimulator from "./0009-bss-simulator";
import * as lines from "./0010-lines";
import * as simActivation from "./0013-sim-activation-iccids-and-requesters";
import * as esimActivationsByIccid from "./0014-esim-activations-by-iccid";
import * as accountEmails from "./0015-account-emails";
import * as lineRegistrations from "./0016-line-registrations";
import * as holdersAwaitingRegistration from "./0017-holders-awaiting-registration";
import * as orderPortIns from "./0018-order-port-ins";
import * as invoices from "./0019-invoices";
import * as savedCardsAndAutomaticTopups from "./0020-saved-cards-and-automatic-topups";
import * as passkeyUses from "./0021-passkey-uses";
import * as accountSignOuts from "./0022-account-sign-outs";
import * as registrationPassportsAndNotices from "./0023-registration-passports-and-notices";
import * as orderHolderProofs from "./0024-order-holder-proofs";
import * as assistedValidations from "./0025-assisted-validations";

/**
 * Every migration, imported statically so that the server bundle carries them (no directory is
 * read at run time). Names sort in the order they run; add new ones at the end.
 */
export const migrations: Record<string, Migration> = {
  "0001-commerce": commerce,
  "0002-portability": portability,
  "0003-topups": topups,
  "0004-revoked-access": revokedAccess,
  "0005-payment-methods": paymentMethods,
  "0006-recarga-and-esim": recargaAndEsim,
  "0007-mail-and-operations": mailAndOperations,
  "0008-order-links-and-esim-state": orderLinksAndEsimState,
  "0009-bss-simulator": bssSimulator,
  "0010-lines": lines,
  "0013-sim-activation-iccids-and-requesters": simActivation,
  "0014-esim-activations-by-iccid": esimActivationsByIccid,
  "0015-account-emails": accountEmails,
  "0016-line-registrations": lineRegistrations,
  "0017-holders-awaiting-registration": holdersAwaitingRegistration,
  "0018-order-port-ins": orderPortIns,
  "0019-invoices": invoices,
  "0020-saved-cards-and-automatic-topups": savedCardsAndAutomaticTopups,
  "0021-passkey-uses": passkeyUses,
  "0022-account-sign-outs": accountSignOuts,
  "0023-registration-passports-and-notices": registrationPassportsAndNotices,
  "0024-order-holder-proofs": orderHolderProofs,
  "0025-assisted-validations": assistedValidations,
};
