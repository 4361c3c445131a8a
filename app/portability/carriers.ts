/** Operators a customer may port from (brand names as customers know them). */
export const CARRIERS = [
  { id: "telcel", name: "Telcel" },
  { id: "att", name: "AT&T" },
  { id: "movistar", name: "Movistar" },
  { id: "unefon", name: "Unefon" },
  { id: "bait", name: "Bait" },
  { id: "izzi", name: "izzi móvil" },
  { id: "megamovil", name: "Megamóvil" },
  { id: "totalplay", name: "Totalplay Móvil" },
  { id: "weex", name: "Weex" },
  { id: "diri", name: "Diri" },
  { id: "oui", name: "Oui Móvil" },
  { id: "pillofon", name: "Pillofon" },
  { id: "freedompop", name: "FreedomPop" },
  { id: "flash", name: "Flash Mobile" },
  { id: "newww", name: "Newww" },
  { id: "cfe", name: "CFE Internet para Todos" },
  { id: "otro", name: "Otro" },
] as const;

export type CarrierId = (typeof CARRIERS)[number]["id"];
export const CARRIER_IDS = CARRIERS.map((carrier) => carrier.id) as [CarrierId, ...CarrierId[]];
