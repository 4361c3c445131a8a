import { kept, identificationTypes } from "../../public/locales/es/registration.json";
import { formatDay } from "~/lib/dates";
import {
  ASSISTED_VALIDATION_PATH,
  POINTS_OF_SERVICE_PATH,
  REGISTRATION_PATH,
} from "~/registration/paths";
import { KEPT_REGISTRATION_DATA, REGISTRATION_RULES } from "~/registration/registration-rules";
import type { HelpArticle } from "./content";
import { countText, listText } from "./facts";

/*
 * The help centre's answers on the line registration (issue 27). Their dates, limits and numbers
 * are the rule's own (~/registration/registration-rules), which the registration code enforces,
 * and what is kept is the list the registration form shows (registration:kept): a change of the
 * rule changes these answers. registration-articles.test.ts fails on a date or a limit typed in.
 */

/** The rule's values as plain types, so that another rule can be phrased (tests). */
export type RegistrationRuleValues = {
  readonly [K in keyof typeof REGISTRATION_RULES]: (typeof REGISTRATION_RULES)[K] extends string
    ? string
    : (typeof REGISTRATION_RULES)[K] extends number
      ? number
      : readonly string[];
};

/** The rule as the help centre states it: "30 de junio de 2026", "10 líneas", "911, 074 y 089". */
export function registrationPhrases(rules: RegistrationRuleValues = REGISTRATION_RULES) {
  return {
    publishedOn: formatDay(rules.publishedOn),
    requiredFrom: formatDay(rules.requiredFrom),
    deadline: formatDay(rules.deadline),
    suspensionFrom: formatDay(rules.suspensionFrom),
    maxLines: countText(rules.maxLinesPerPerson, "línea", "líneas"),
    reachable: listText(rules.reachableWhileSuspended),
    attempts: countText(rules.onlineAttempts, "intento fallido", "intentos fallidos"),
    attemptsWindow: countText(rules.onlineAttemptsWindowHours, "hora", "horas"),
  };
}

/** What the operator keeps of a registration, as the registration form names it. */
export const KEPT_REGISTRATION_LABELS: readonly string[] = KEPT_REGISTRATION_DATA.map(
  (name) => kept[name],
);

const IDENTIFICATIONS = listText(Object.values(identificationTypes));

/** The questions on the registration, in the category "registro-y-seguridad". */
export function registrationArticles(
  rules: RegistrationRuleValues = REGISTRATION_RULES,
): HelpArticle[] {
  const rule = registrationPhrases(rules);
  return [
    {
      slug: "vincular-linea-con-curp",
      category: "registro-y-seguridad",
      question: "¿Por qué debo vincular mi línea con mi CURP?",
      keywords: [
        "registro de celulares",
        "registro de líneas",
        "padrón",
        "obligatorio",
        "suspensión",
        "línea suspendida",
        "crt",
        "lineamientos",
      ],
      answer: [
        {
          kind: "paragraph",
          text: `Es una obligación para todas las líneas móviles de México, de prepago y de renta, de cualquier compañía. La establecen los Lineamientos para la Identificación de Líneas Telefónicas Móviles de la Comisión Reguladora de Telecomunicaciones (CRT), publicados en el Diario Oficial de la Federación el ${rule.publishedOn}, para combatir la extorsión y el fraude telefónico.`,
        },
        {
          kind: "list",
          title: "Lo que debes saber:",
          items: [
            `Desde el ${rule.requiredFrom} cada línea debe estar registrada a nombre de su titular. Las líneas nuevas se registran al contratarlas.`,
            `Las líneas que ya estaban en uso tenían hasta el ${rule.deadline} para registrarse.`,
            `Desde el ${rule.suspensionFrom}, una línea sin registro queda suspendida: no puede hacer llamadas, enviar SMS ni usar datos; solo puede llamar a emergencias y a números de atención ciudadana (${rule.reachable}) y a Conecta Móvil. No pierdes tu número: el servicio vuelve en cuanto completas el registro.`,
            `Una persona puede tener hasta ${rule.maxLines} registradas a su nombre. Las líneas de una empresa (persona moral) no tienen ese límite.`,
            `El trámite es gratuito y lo haces en línea en [Registro de línea](${REGISTRATION_PATH}).`,
          ],
        },
        {
          kind: "list",
          title: "De tu registro guardamos solo lo que piden los lineamientos:",
          items: [...KEPT_REGISTRATION_LABELS],
        },
        {
          kind: "paragraph",
          text: "No guardamos fotos de tu identificación ni selfies. Tu CURP o RFC se guardan cifrados y solo se muestran incompletos. Usamos estos datos solo para el registro de tu línea, como explica el [Aviso de privacidad](/docs/aviso-de-privacidad.pdf).",
        },
      ],
    },
    {
      slug: "como-vincular-mi-curp",
      category: "registro-y-seguridad",
      question: "¿Cómo vinculo mi línea de Conecta Móvil con mi CURP?",
      keywords: [
        "registro",
        "registrar línea",
        "identificación",
        "ine",
        "pasaporte",
        "extranjero",
        "empresa",
        "rfc",
        "folio",
      ],
      answer: [
        {
          kind: "list",
          title: "Necesitas:",
          items: [
            "Tener a la mano la línea: te enviamos un código por SMS a ese número.",
            `Tu CURP y una identificación oficial: ${IDENTIFICATIONS}. Si no recuerdas tu CURP, consúltala gratis en gob.mx/curp.`,
            "Si eres extranjero: tu pasaporte y tu nacionalidad (o tu CURP temporal, si tienes una).",
            "Si la línea es de una empresa: su razón social, su RFC y el nombre y la CURP de su representante legal.",
          ],
        },
        {
          kind: "steps",
          title: "El trámite en línea toma unos minutos:",
          items: [
            `Entra a [Registro de línea](${REGISTRATION_PATH}) y escribe el número de 10 dígitos de la línea.`,
            "Escribe el código que te enviamos por SMS a esa línea.",
            "Escribe tu nombre completo tal como aparece en tu identificación y tu CURP. Revisamos la CURP antes de enviarla y te decimos qué carácter corregir.",
            "Escribe el número de tu identificación (de la credencial para votar, los 9 números del CIC en el reverso) y sube una foto de ella y una selfie tomada en ese momento: así comprobamos que eres su titular. No guardamos esas fotos.",
            "Validamos tu identidad y te damos el folio del registro (VIN-año-número) con su fecha y hora: guárdalo como comprobante. Si nos dejas tu correo, también te lo enviamos.",
          ],
        },
        {
          kind: "paragraph",
          text: `Si la validación de identidad falla ${rule.attempts} en ${rule.attemptsWindow}, el registro en línea de ese número se detiene: termínalo con tu identificación en uno de nuestros [puntos de atención](${POINTS_OF_SERVICE_PATH}), o pide una [validación asistida](${ASSISTED_VALIDATION_PATH}) y una persona de Conecta Móvil te contacta para terminarlo a distancia.`,
        },
        {
          kind: "paragraph",
          text: `Si la línea estaba registrada a nombre de otra persona, tu registro la reemplaza: por eso pedimos el código enviado a la línea. Si tu CURP ya tiene ${rule.maxLines} registradas, no podemos registrar otra a tu nombre.`,
        },
        {
          kind: "paragraph",
          text: "Para registrar tu línea nunca te pediremos tu NIP, contraseñas ni datos de tarjetas.",
        },
      ],
    },
    {
      slug: "puntos-de-atencion",
      category: "registro-y-seguridad",
      question: "¿Dónde registro mi línea en persona o repongo mi SIM?",
      keywords: [
        "tienda",
        "sucursal",
        "punto de atención",
        "en persona",
        "código postal",
        "reposición de sim",
        "validación asistida",
      ],
      answer: [
        {
          kind: "paragraph",
          text: `En nuestros [puntos de atención](${POINTS_OF_SERVICE_PATH}): búscalos por tu código postal o por estado y elige el servicio (registro de línea, reposición de SIM, portabilidad o venta de SIM). Lleva tu identificación oficial vigente y tu CURP.`,
        },
        {
          kind: "paragraph",
          text: `Si no puedes ir, pide una [validación asistida](${ASSISTED_VALIDATION_PATH}): déjanos un teléfono o correo, el número de la línea y cuándo te contactamos, y te damos un folio. Una persona de Conecta Móvil te contacta en ese horario para validar tu identidad y terminar el registro.`,
        },
      ],
    },
  ];
}
