import { formatCount } from "./money";
import type { Plan } from "./plan";
import { FAIR_USE } from "./terms";

/**
 * The plan catalogue. Edit here; the server seeds the database from this list at start (plans
 * removed from it are retired, not deleted, so past orders keep their lines).
 */
const everywhere = { mexico: true, usa: true, canada: true };
const fullSocial = ["WhatsApp", "Facebook", "Instagram", "X", "TikTok", "Snapchat"];
// The same figures as the fair-use policy (FAIR_USE), so the plan card and the policy agree.
const fairUse = `Política de uso justo: llamadas y SMS ilimitados para uso personal, hasta ${formatCount(FAIR_USE.minutes)} minutos y ${formatCount(FAIR_USE.sms)} SMS cada ${FAIR_USE.periodDays} días; al agotar tus datos, la navegación se detiene hasta tu siguiente recarga. En EUA y Canadá aplican los mismos beneficios hasta el 50% de los datos incluidos.`;

export const PLAN_CATALOGUE: readonly Plan[] = [
  {
    id: "conecta-50",
    name: "Conecta 50",
    price: 50,
    validityDays: 7,
    dataGb: 1,
    minutes: null,
    sms: null,
    coverage: everywhere,
    unlimitedSocial: true,
    socialNetworks: ["WhatsApp"],
    hotspot: false,
    simTypes: ["physical", "esim"],
    fairUseNote: fairUse,
    tariffRegistration: "CRT-1846220",
  },
  {
    id: "conecta-100",
    name: "Conecta 100",
    price: 100,
    validityDays: 15,
    dataGb: 3,
    minutes: null,
    sms: null,
    coverage: everywhere,
    unlimitedSocial: true,
    socialNetworks: ["WhatsApp", "Facebook"],
    hotspot: false,
    simTypes: ["physical", "esim"],
    fairUseNote: fairUse,
    tariffRegistration: "CRT-1846221",
  },
  {
    id: "conecta-150",
    name: "Conecta 150",
    price: 150,
    validityDays: 30,
    dataGb: 5,
    minutes: null,
    sms: null,
    coverage: everywhere,
    unlimitedSocial: true,
    socialNetworks: fullSocial,
    hotspot: true,
    simTypes: ["physical", "esim"],
    fairUseNote: fairUse,
    tariffRegistration: "CRT-1846222",
  },
  {
    id: "conecta-200",
    name: "Conecta 200",
    price: 200,
    validityDays: 30,
    dataGb: 10,
    minutes: null,
    sms: null,
    coverage: everywhere,
    unlimitedSocial: true,
    socialNetworks: fullSocial,
    hotspot: true,
    simTypes: ["physical", "esim"],
    fairUseNote: fairUse,
    tariffRegistration: "CRT-1846223",
  },
  {
    id: "conecta-300",
    name: "Conecta 300",
    price: 300,
    validityDays: 30,
    dataGb: 20,
    minutes: null,
    sms: null,
    coverage: everywhere,
    unlimitedSocial: true,
    socialNetworks: fullSocial,
    hotspot: true,
    simTypes: ["physical", "esim"],
    fairUseNote: fairUse,
    tariffRegistration: "CRT-1846224",
  },
  {
    id: "conecta-500",
    name: "Conecta 500",
    price: 500,
    validityDays: 30,
    dataGb: 50,
    minutes: null,
    sms: null,
    coverage: everywhere,
    unlimitedSocial: true,
    socialNetworks: fullSocial,
    hotspot: true,
    simTypes: ["esim"],
    fairUseNote: fairUse,
    tariffRegistration: "CRT-1846225",
  },
  {
    id: "conecta-local-80",
    name: "Conecta Local 80",
    price: 80,
    validityDays: 15,
    dataGb: 2,
    minutes: 1000,
    sms: 500,
    coverage: { mexico: true, usa: false, canada: false },
    unlimitedSocial: false,
    socialNetworks: [],
    hotspot: false,
    simTypes: ["physical"],
    fairUseNote:
      "Minutos y SMS solo dentro de México. Al agotar tus datos, la navegación se detiene hasta tu siguiente recarga.",
    tariffRegistration: "CRT-1846226",
  },
  {
    id: "conecta-anual",
    name: "Conecta Anual",
    price: 2399,
    validityDays: 365,
    dataGb: 120,
    minutes: null,
    sms: null,
    coverage: everywhere,
    unlimitedSocial: true,
    socialNetworks: fullSocial,
    hotspot: true,
    simTypes: ["physical", "esim"],
    fairUseNote: `${fairUse} Los datos se entregan en 12 bolsas de 10 GB, una cada 30 días.`,
    tariffRegistration: "CRT-1846227",
  },
];

/**
 * What the home page puts forward (decision 0071): three plans, one of them marked "Más popular"
 * and shown as the main offer. Ids of this catalogue; a retired one is skipped (see featured.ts).
 */
export const HOME_FEATURED = {
  planIds: ["conecta-150", "conecta-200", "conecta-300"],
  popularId: "conecta-200",
} as const;
