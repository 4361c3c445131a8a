import { formatCount } from "~/catalog/money";
import {
  FAIR_USE,
  LINE_ACTIVATION,
  NIP_VALIDITY_DAYS,
  NUMBER_KEPT_MONTHS,
  NUMBER_RELEASE_NOTICE_DAYS,
  PHYSICAL_SIM_DELIVERY,
  PORTABILITY_MAX_HOURS,
  SIM_PRICE,
  SIM_REPLACEMENT_PRICE,
} from "~/catalog/terms";
import type { HelpArticle, HelpCategory } from "./content";
import {
  CITY_DELIVERY_TEXT,
  costsText,
  countText,
  DELIVERY_RANGE_TEXT,
  ELSEWHERE_DELIVERY_TEXT,
  hotspotText,
  isFree,
  mexicoOnlyPlans,
  PHYSICAL_SIM_COST_TEXT,
  planNames,
  priceText,
  SHIPPING_TEXT,
  simAvailabilityText,
  TOPUP_LINES,
} from "./facts";
import { registrationArticles, registrationPhrases } from "./registration-articles";
import { BALANCE_PATH, LINES_PATH, SIM_ACTIVATION_PATH } from "~/line/paths";
import { REGISTRATION_PATH } from "~/registration/paths";
import { INVOICING_PATH } from "~/invoicing/paths";
import { TOPUP_PATH } from "~/topup/paths";
import { PORTABILITY_PATH } from "~/portability/paths";
import { invoicingExampleText, invoicingWindowText, RUNNING_OUT_ALERT_TEXT } from "./product-facts";

/*
 * The help centre's questions and answers: customer content, edited here rather than in code.
 * Markup (see content.ts): `literal` for what the customer types or reads exactly, [words](/path)
 * for a page of this site, [words](chat) for the WhatsApp chat. A slug is a published address
 * (/help-center#slug): never rename one. Order here is the order on the page.
 *
 * Prices, benefits and times are never typed here: they come from the plan catalogue, the top-up
 * amounts and the store's terms (~/catalog/terms), through the phrases of ./facts, so a change of
 * terms changes every answer. content.test.ts fails on a price or a data amount the data lacks.
 * The line registration's dates and limits come from its rule, through ./registration-articles
 * (registration-articles.test.ts fails on one typed in). What the product does — the pages that
 * do it, the alerts it sends, the invoicing deadline — comes from the code that does it, through
 * the path constants and ./product-facts (decision 0142): claims.test.ts fails on a path typed
 * in, a deadline of another rule, or an alert nothing sends.
 */

const ACTIVATION_MAX = countText(LINE_ACTIVATION.maxHours, "hora", "horas");
const PORTABILITY_MAX = countText(PORTABILITY_MAX_HOURS, "hora", "horas");
const NIP_VALIDITY = countText(NIP_VALIDITY_DAYS, "día natural", "días naturales");
const NUMBER_KEPT = countText(NUMBER_KEPT_MONTHS, "mes", "meses");
const MEXICO_ONLY = mexicoOnlyPlans();
const REGISTRATION = registrationPhrases();

export const HELP_CATEGORIES: HelpCategory[] = [
  {
    slug: "activacion",
    name: "Activación y primeros pasos",
    description: "Pon a funcionar tu SIM y conoce tu número.",
  },
  {
    slug: "envio-de-sim",
    name: "Compra y envío de tu SIM",
    description: "Cómo pedir tu SIM física, cuánto tarda y cómo elegir entre SIM y eSIM.",
  },
  {
    slug: "internet-y-apn",
    name: "Internet, APN y hotspot",
    description: "Configura tus datos, comparte internet y conoce el uso justo.",
  },
  {
    slug: "esim",
    name: "eSIM",
    description: "Compatibilidad, instalación en iPhone y Android, y cambio de teléfono.",
  },
  {
    slug: "saldo-recargas-y-pagos",
    name: "Saldo, recargas y pagos",
    description: "Consulta tu saldo, recarga y paga de forma segura.",
  },
  {
    slug: "portabilidad",
    name: "Portabilidad",
    description: "Cámbiate a Conecta Móvil sin perder tu número.",
  },
  {
    slug: "cobertura-y-roaming",
    name: "Cobertura y roaming",
    description: "Dónde tienes señal y cómo usar tu línea en Estados Unidos y Canadá.",
  },
  {
    slug: "registro-y-seguridad",
    name: "Registro de tu línea (CURP) y seguridad",
    description: "Vinculación obligatoria con tu CURP, robo o extravío y mensajes sospechosos.",
  },
];

export const HELP_ARTICLES: HelpArticle[] = [
  // Activación y primeros pasos
  {
    slug: "como-activar-mi-sim",
    category: "activacion",
    question: "¿Cómo activo mi SIM de Conecta Móvil?",
    keywords: ["activar", "chip", "alta", "nueva línea", "empezar"],
    answer: [
      {
        kind: "paragraph",
        text: "Tu SIM se activa en cuanto tiene un plan pagado y la línea queda vinculada a tu CURP, como exige la regulación mexicana desde 2026. Sigue estos pasos:",
      },
      {
        kind: "steps",
        items: [
          "Apaga tu teléfono, abre la bandeja de la SIM con la herramienta o un clip y coloca la SIM de Conecta Móvil (si tu teléfono admite dos SIM, usa la ranura 1).",
          "Enciende el teléfono. En unos segundos debe aparecer el nombre Conecta Móvil o las barras de señal.",
          `Activa tu línea en [Activa tu SIM](${SIM_ACTIVATION_PATH}) con el ICCID impreso en la tarjeta de tu SIM (19 o 20 dígitos que empiezan con 89): ahí te damos tu número. Tu plan se pagó al comprar la SIM y empieza con la activación; no necesitas hacer una recarga.`,
          `Vincula tu línea con tu CURP en [Registro de línea](${REGISTRATION_PATH}) si no la registraste al comprarla. Ten a la mano tu identificación oficial (INE, pasaporte o CURP biométrica).`,
          "Reinicia el teléfono. Si tienes señal pero no navegas, configura el APN `internet.conectamovil.mx` (abajo explicamos cómo en Android y en iPhone).",
        ],
      },
      {
        kind: "paragraph",
        text: `Si elegiste eSIM, en lugar de los dos primeros pasos instálala con el código QR de tu confirmación (te explicamos cómo en la sección eSIM). Si después de ${ACTIVATION_MAX} sigues sin servicio, [escríbenos por WhatsApp](chat) con el número de tu pedido y lo revisamos contigo.`,
      },
    ],
  },
  {
    slug: "cuanto-tarda-la-activacion",
    category: "activacion",
    question: "¿Cuánto tarda en activarse mi línea?",
    keywords: ["tiempo de activación", "sin servicio", "no funciona", "sin señal"],
    answer: [
      {
        kind: "paragraph",
        text: `Normalmente la línea queda activa en menos de ${countText(LINE_ACTIVATION.usualMinutes, "minuto", "minutos")} después de que se confirman tu pago y la vinculación con tu CURP. En casos excepcionales puede tardar hasta ${ACTIVATION_MAX}.`,
      },
      {
        kind: "list",
        title: "Si pasó ese tiempo y no tienes servicio, revisa:",
        items: [
          "Que la SIM esté bien colocada y que el teléfono no muestre «Sin SIM».",
          "Que el modo avión esté apagado. Encenderlo y apagarlo obliga al teléfono a buscar red de nuevo.",
          "Que tu teléfono esté liberado: un equipo bloqueado a otra compañía no acepta nuestra SIM.",
          "Que hayas terminado el registro con tu CURP. Sin él la línea no se activa.",
        ],
      },
      {
        kind: "paragraph",
        text: "Si todo está bien y sigue sin funcionar, [escríbenos por WhatsApp](chat) con tu número de pedido.",
      },
    ],
  },
  {
    slug: "cual-es-mi-numero",
    category: "activacion",
    question: "¿Cómo sé cuál es mi número de teléfono de Conecta Móvil?",
    keywords: ["mi número", "número asignado", "numero celular"],
    answer: [
      {
        kind: "list",
        title: "Tienes varias formas de consultarlo:",
        items: [
          // Only where the store shows the number: it is given when the line is activated, so
          // neither the SIM's card nor the order's e-mails (which carry its ICCID) can hold it.
          `En la página de tu pedido, en cuanto tu línea queda activa: al instalar tu eSIM, o al activar tu SIM física en [Activar SIM](${SIM_ACTIVATION_PATH}), donde también aparece.`,
          `Si compraste con tu cuenta, o agregaste tu línea con el código que te enviamos por SMS, en [Mis líneas](${LINES_PATH}).`,
          `En [Consulta tu saldo](${BALANCE_PATH}), sin cuenta, con el código que te enviamos por SMS a tu línea: ahí aparece con tu saldo y la vigencia de tu plan.`,
          "Marca `*100#` desde tu línea: verás en pantalla tu número, tu saldo y la vigencia de tu plan. Es gratis y no usa datos.",
        ],
      },
      {
        kind: "paragraph",
        text: "Si te cambiaste con portabilidad, tu número es el mismo que ya tenías.",
      },
    ],
  },
  {
    slug: "mi-telefono-es-compatible",
    category: "activacion",
    question: "¿Mi teléfono es compatible con Conecta Móvil?",
    keywords: ["compatibilidad", "equipo", "celular liberado", "banda 28", "imei"],
    answer: [
      {
        kind: "paragraph",
        text: "Tu teléfono funciona con Conecta Móvil si está liberado (no bloqueado a otra compañía) y es compatible con 4G LTE. Nuestra red es la Red Compartida, que transmite en la banda 28 (700 MHz); los teléfonos que la soportan tienen la mejor cobertura, sobre todo dentro de edificios.",
      },
      {
        kind: "steps",
        title: "Para confirmarlo:",
        items: [
          "Marca `*#06#` en tu teléfono para ver tu IMEI (un número de 15 dígitos).",
          "[Envíanos tu IMEI por WhatsApp](chat) y te decimos en minutos si tu equipo es compatible y si admite eSIM.",
        ],
      },
      {
        kind: "paragraph",
        text: "Casi todos los teléfonos vendidos en México desde 2019 son compatibles. Si compraste tu equipo con otra compañía, pídele que lo libere antes de cambiarte; es un trámite gratuito.",
      },
    ],
  },

  // Compra y envío de tu SIM
  {
    slug: "como-pido-una-sim-fisica",
    category: "envio-de-sim",
    question: "¿Cómo pido una SIM física?",
    keywords: ["chip", "comprar sim", "pedido", "tienda en línea", "carrito", "whatsapp"],
    answer: [
      {
        kind: "paragraph",
        text: "Tu SIM la compras en línea junto con tu plan, sin salir de casa:",
      },
      {
        kind: "steps",
        items: [
          "Elige tu plan en [Planes](/plans) y agrégalo al carrito. Para ver solo los que se venden con SIM física, filtra por Tipo de SIM: [SIM física](/plans?sim_type=physical).",
          "En el carrito, toca Continuar al pago. En Tipo de SIM elige SIM física y escribe tus datos de contacto y tu dirección de entrega con código postal.",
          "Paga con tarjeta, en efectivo en una tienda o por transferencia SPEI.",
          "En cuanto se confirma tu pago preparamos tu SIM. Cuando sale te enviamos el nombre de la paquetería y el número de guía para rastrearla.",
        ],
      },
      {
        kind: "paragraph",
        text: `${PHYSICAL_SIM_COST_TEXT} Llega ${DELIVERY_RANGE_TEXT}. Si tu teléfono admite eSIM, puedes elegirla en lugar de la SIM física y usar tu línea el mismo día, sin esperar paquetería. ${simAvailabilityText()}`,
      },
      {
        kind: "paragraph",
        text: "¿Tienes dudas antes de comprar? [Escríbenos por WhatsApp](chat) y te ayudamos con tu pedido.",
      },
    ],
  },
  {
    slug: "cuanto-tarda-el-envio",
    category: "envio-de-sim",
    question: "¿Cuánto tarda en llegar mi SIM y cómo rastreo el envío?",
    keywords: ["entrega", "paquetería", "guía", "rastreo", "envío", "domicilio"],
    answer: [
      {
        kind: "list",
        title:
          "Tu SIM física llega a tu domicilio en estos plazos, contados desde que se confirma tu pago:",
        items: [
          `Ciudades y zonas metropolitanas: ${CITY_DELIVERY_TEXT}.`,
          `Localidades pequeñas o rurales: ${ELSEWHERE_DELIVERY_TEXT}.`,
        ],
      },
      {
        kind: "paragraph",
        text: "Cuando tu SIM sale de nuestro almacén te enviamos por correo el nombre de la paquetería y el número de guía, con el que puedes seguir el paquete en su sitio. La paquetería hace dos intentos de entrega; si no hay nadie, deja un aviso con los datos para recogerlo.",
      },
      {
        kind: "paragraph",
        text: `Si pasó el plazo y el paquete no llega o la guía no muestra movimiento en ${countText(PHYSICAL_SIM_DELIVERY.stalledDays, "día hábil", "días hábiles")}, [escríbenos por WhatsApp](chat) y te enviamos otra SIM sin costo.`,
      },
    ],
  },
  {
    slug: "sim-fisica-o-esim",
    category: "envio-de-sim",
    question: "¿Qué me conviene más: SIM física o eSIM?",
    keywords: ["diferencia", "chip virtual", "sim digital"],
    answer: [
      {
        kind: "list",
        title: "eSIM:",
        items: [
          `No esperas paquetería: el código QR para instalarla aparece en la confirmación de tu pedido en cuanto se aprueba tu pago. Puedes volver a esa página cuando quieras.`,
          "No se pierde ni se daña, y puedes tenerla junto con otra SIM en el mismo teléfono.",
          "Solo funciona en teléfonos compatibles con eSIM.",
        ],
      },
      {
        kind: "list",
        title: "SIM física:",
        items: [
          "Funciona en cualquier teléfono liberado.",
          "La cambias de teléfono solo con moverla de bandeja.",
          `Llega a tu domicilio ${DELIVERY_RANGE_TEXT}, con ${SHIPPING_TEXT}.`,
        ],
      },
      {
        kind: "paragraph",
        text: `Las dos vienen con tu plan y ${isFree(SIM_PRICE) ? "ninguna tiene costo" : `cuestan ${priceText(SIM_PRICE)}`}: la eliges en Tipo de SIM al pagar. ${simAvailabilityText()}`,
      },
    ],
  },

  // Internet, APN y hotspot
  {
    slug: "configurar-apn-android",
    category: "internet-y-apn",
    question: "¿Cómo configuro el APN en Android?",
    keywords: ["internet", "datos móviles", "punto de acceso", "samsung", "motorola", "xiaomi"],
    answer: [
      {
        kind: "paragraph",
        text: "El APN le dice a tu teléfono cómo conectarse a internet. La mayoría de los teléfonos lo configura solo; si tienes señal pero no navegas, créalo a mano. Los nombres de los menús cambian un poco según la marca:",
      },
      {
        kind: "steps",
        title: "En Android:",
        items: [
          "Abre Ajustes (o Configuración) > Conexiones > Redes móviles > Nombres de punto de acceso. En Motorola, Pixel y otros: Configuración > Redes e Internet > SIM > Nombres de puntos de acceso.",
          "Toca Agregar o el signo +.",
          "Escribe en Nombre: `Conecta Móvil`.",
          "Escribe en APN: `internet.conectamovil.mx`.",
          "Deja vacíos Proxy, Puerto, Nombre de usuario y Contraseña, y no cambies MCC ni MNC.",
          "En Tipo de APN escribe `default,supl` y en Protocolo APN elige `IPv4/IPv6`.",
          "Guarda (en algunos teléfonos, desde el menú ⋮ > Guardar) y selecciona el APN nuevo en la lista.",
          "Apaga y enciende los datos móviles o reinicia el teléfono.",
        ],
      },
    ],
  },
  {
    slug: "configurar-apn-iphone",
    category: "internet-y-apn",
    question: "¿Cómo configuro el APN en iPhone?",
    keywords: ["internet", "datos celulares", "punto de acceso", "ios", "apple"],
    answer: [
      {
        kind: "paragraph",
        text: "En iPhone el APN suele configurarse solo al insertar la SIM o instalar la eSIM. Si no navegas, primero busca una actualización de la configuración del operador en Configuración > General > Información (si hay una, aparece un aviso para instalarla). Si sigue sin funcionar:",
      },
      {
        kind: "steps",
        title: "En iPhone:",
        items: [
          "Abre Configuración > Celular > Opciones de datos celulares > Red de datos celulares.",
          "En la sección Datos celulares, escribe en APN: `internet.conectamovil.mx`. Deja vacíos Nombre de usuario y Contraseña.",
          "Escribe el mismo APN en la sección Compartir Internet, para que también funcione el hotspot.",
          "Regresa a la pantalla anterior para guardar y reinicia el iPhone.",
        ],
      },
      {
        kind: "paragraph",
        text: "Si no ves la opción Red de datos celulares, tu iPhone ya usa la configuración automática del operador; en ese caso, actualiza iOS y reinicia el teléfono.",
      },
    ],
  },
  {
    slug: "tengo-senal-pero-no-navego",
    category: "internet-y-apn",
    question: "Tengo señal pero no puedo navegar, ¿qué hago?",
    keywords: ["sin internet", "no carga", "datos no funcionan", "sin datos"],
    answer: [
      {
        kind: "steps",
        items: [
          "Confirma que los datos móviles estén encendidos y que el modo avión esté apagado.",
          `Revisa que tu plan siga vigente y que te queden datos en [Consulta tu saldo](${BALANCE_PATH}) (con el Wi-Fi, sin cuenta) o marcando \`*100#\`.`,
          "Revisa que el APN sea `internet.conectamovil.mx` (consulta las preguntas sobre el APN en Android y en iPhone).",
          "Reinicia el teléfono.",
          "Si estás en Estados Unidos o Canadá, activa el roaming de datos.",
          `Confirma que tu línea esté vinculada a tu CURP: desde el ${REGISTRATION.suspensionFrom} las líneas sin registro quedan suspendidas. Si no lo está, regístrala en [Registro de línea](${REGISTRATION_PATH}).`,
        ],
      },
      {
        kind: "paragraph",
        text: "Si nada de esto funciona, [escríbenos por WhatsApp](chat) con tu número y el modelo de tu teléfono.",
      },
    ],
  },
  {
    slug: "compartir-datos-hotspot",
    category: "internet-y-apn",
    question: "¿Puedo compartir mis datos con hotspot?",
    keywords: ["módem", "anclaje", "zona wifi", "compartir internet", "tethering", "laptop"],
    answer: [
      {
        kind: "paragraph",
        text: `${hotspotText()} Lo que consuman esos dispositivos se descuenta de tus GB: las redes sociales ilimitadas solo aplican en las apps de tu teléfono, no en lo que navegas compartiendo.`,
      },
      {
        kind: "steps",
        title: "En Android:",
        items: [
          "Abre Ajustes (o Configuración) > Conexiones > Zona Wi-Fi móvil y Anclaje a red (en otras marcas: Redes e Internet > Hotspot y conexión compartida).",
          "Activa Zona Wi-Fi móvil y consulta o cambia ahí el nombre de la red y la contraseña.",
        ],
      },
      {
        kind: "steps",
        title: "En iPhone:",
        items: [
          "Abre Configuración > Compartir Internet.",
          "Activa Permitir a otros conectarse y usa la contraseña que aparece.",
        ],
      },
      {
        kind: "paragraph",
        text: "Si en iPhone no aparece Compartir Internet, escribe `internet.conectamovil.mx` en Configuración > Celular > Opciones de datos celulares > Red de datos celulares > Compartir Internet > APN y reinicia el teléfono.",
      },
    ],
  },
  {
    slug: "politica-de-uso-justo",
    category: "internet-y-apn",
    question: "¿Qué es la política de uso justo?",
    keywords: ["ilimitado", "reducción de velocidad", "límite", "abuso"],
    answer: [
      {
        kind: "paragraph",
        text: "Es la regla que protege la calidad de la red para todos: los beneficios ilimitados de tu plan (las llamadas, los SMS y las redes sociales que incluye, según el plan) son para el uso personal de una persona. Las videollamadas, las transmisiones en vivo y los enlaces que abren otros sitios sí consumen los datos de tu plan.",
      },
      {
        kind: "list",
        title: `Se considera que el uso excede lo razonable cuando, en ${countText(FAIR_USE.periodDays, "día", "días")}, pasa de:`,
        items: [
          `${formatCount(FAIR_USE.minutes)} minutos de llamadas.`,
          `${formatCount(FAIR_USE.sms)} SMS.`,
          `${formatCount(FAIR_USE.socialGb)} GB en las redes sociales ilimitadas.`,
        ],
      },
      {
        kind: "list",
        title: "Y no están permitidos:",
        items: [
          "Revender el servicio, o usar la SIM en módems, enrutadores fijos o equipos que concentran llamadas.",
          "Centros de llamadas, llamadas automatizadas o envío masivo de SMS.",
          "Usar el roaming de forma permanente: viajar a Estados Unidos o Canadá está incluido, vivir allá con una línea mexicana no.",
        ],
      },
      {
        kind: "paragraph",
        text: `Estos límites superan el consumo de más del 99 % de nuestros clientes. Si se rebasan, te avisamos por SMS y podemos reducir las redes sociales a ${FAIR_USE.socialThrottleKbps} kbps o limitar llamadas o SMS hasta que termine tu plan; ante usos comerciales o fraudulentos, suspender la línea. Los datos de alta velocidad de tu plan y las llamadas al 911 no se ven afectados. Consulta el texto completo en la [Política de uso justo](/docs/politica-de-uso-justo.pdf).`,
      },
    ],
  },
  {
    slug: "se-acabaron-mis-datos",
    category: "internet-y-apn",
    question: "¿Qué pasa cuando se acaban los datos de mi plan?",
    keywords: ["sin gigas", "gb agotados", "megas", "paquete adicional"],
    answer: [
      {
        kind: "paragraph",
        text: `${RUNNING_OUT_ALERT_TEXT} Al terminarse tus datos dejas de navegar, pero siguen funcionando hasta que venza tu plan:`,
      },
      {
        kind: "list",
        items: [
          "Tus llamadas y SMS, ilimitados o los que incluya tu plan.",
          "Las redes sociales ilimitadas de tu plan: cada plan dice cuáles en [Planes](/plans).",
        ],
      },
      {
        kind: "paragraph",
        text: `Para volver a navegar, haz una recarga en [Recarga](${TOPUP_PATH}). Si recargas antes de que venza tu plan, los GB de la recarga se suman a los que te quedan y su vigencia empieza cuando termina la del plan actual. Y si tu plan vence con GB sin usar, se te abonan en tu siguiente recarga, siempre que la hagas dentro de los ${NUMBER_KEPT} siguientes.`,
      },
    ],
  },

  // eSIM
  {
    slug: "mi-telefono-es-compatible-con-esim",
    category: "esim",
    question: "¿Mi teléfono es compatible con eSIM?",
    keywords: ["sim virtual", "chip digital", "eid", "compatibilidad"],
    answer: [
      {
        kind: "paragraph",
        text: "La forma más segura de saberlo: marca `*#06#`. Si en la pantalla aparece un número EID además del IMEI, tu teléfono admite eSIM. También debe estar liberado.",
      },
      {
        kind: "list",
        title: "Algunos modelos compatibles:",
        items: [
          "iPhone XR, XS y todos los posteriores, incluido el iPhone SE de 2.ª y 3.ª generación.",
          "Google Pixel 4 y posteriores.",
          "Samsung Galaxy Z Flip y Z Fold, y los Galaxy S y A recientes.",
          "Motorola Razr y Edge recientes, y otros equipos de gama media y alta.",
        ],
      },
      {
        kind: "paragraph",
        text: "Ojo: la compatibilidad también depende del país donde se vendió el equipo. Por ejemplo, los iPhone vendidos en China continental no tienen eSIM. Si tienes dudas, [envíanos tu modelo por WhatsApp](chat).",
      },
    ],
  },
  {
    slug: "instalar-esim-iphone",
    category: "esim",
    question: "¿Cómo instalo mi eSIM en iPhone?",
    keywords: ["código qr", "activar esim", "apple", "ios"],
    answer: [
      {
        kind: "paragraph",
        text: `En cuanto se aprueba tu pago, el código QR de tu eSIM aparece en la confirmación de tu pedido. Ábrelo en otra pantalla (una computadora u otro teléfono) y ten tu iPhone conectado a Wi-Fi.`,
      },
      {
        kind: "steps",
        title: "En iPhone:",
        items: [
          "Abre Configuración > Celular > Agregar eSIM (en versiones anteriores de iOS: Agregar plan celular).",
          "Elige Usar código QR y escanea el código.",
          "Toca Continuar y espera a que diga que la eSIM está activa.",
          "Ponle a la línea el nombre «Conecta Móvil» y elige si será tu línea principal para llamadas y datos.",
          "Si al terminar no navegas, revisa el APN `internet.conectamovil.mx`.",
        ],
      },
      {
        kind: "paragraph",
        text: "Si no puedes escanear el código, elige Ingresar detalles manualmente y escribe la dirección SM-DP+ y el código de activación que vienen en el mismo correo.",
      },
    ],
  },
  {
    slug: "instalar-esim-android",
    category: "esim",
    question: "¿Cómo instalo mi eSIM en Android?",
    keywords: ["código qr", "activar esim", "samsung", "pixel", "motorola"],
    answer: [
      {
        kind: "paragraph",
        text: `Ten a la mano el código QR de tu eSIM, abierto en otra pantalla: aparece en la confirmación de tu pedido en cuanto se aprueba tu pago. Conecta tu teléfono a Wi-Fi.`,
      },
      {
        kind: "steps",
        title: "En Samsung:",
        items: [
          "Abre Ajustes > Conexiones > Administrador de SIM.",
          "Toca Agregar eSIM > Escanear código QR del proveedor de servicios y escanea el código.",
          "Confirma y espera a que la línea aparezca como activa.",
        ],
      },
      {
        kind: "steps",
        title: "En Google Pixel, Motorola y otros:",
        items: [
          "Abre Configuración > Redes e Internet > SIM.",
          "Toca Agregar SIM (o el signo +) > Descargar una SIM y escanea el código.",
          "Confirma y espera a que la línea aparezca como activa.",
        ],
      },
      {
        kind: "paragraph",
        text: "Al terminar, elige Conecta Móvil como SIM para datos móviles. Si no navegas, configura el APN `internet.conectamovil.mx`.",
      },
    ],
  },
  {
    slug: "cambie-de-telefono-esim",
    category: "esim",
    question: "Cambié de teléfono o borré mi eSIM, ¿cómo la recupero?",
    keywords: ["nuevo teléfono", "transferir esim", "nuevo qr", "eliminé esim"],
    answer: [
      {
        kind: "paragraph",
        text: "Cada código QR de eSIM se instala una sola vez. Si cambias de teléfono o borraste la eSIM, necesitas un código nuevo:",
      },
      {
        kind: "steps",
        items: [
          "[Escríbenos por WhatsApp](chat) desde otro teléfono o desde tu correo registrado.",
          "Confirma tu identidad con tu nombre completo y la CURP vinculada a la línea.",
          "Te enviamos a tu correo registrado un enlace para ver tu código QR nuevo. Instálalo como la primera vez.",
        ],
      },
      {
        kind: "paragraph",
        text: `El código nuevo ${costsText(SIM_REPLACEMENT_PRICE.esim)}. En cuanto lo instalas, la eSIM anterior deja de funcionar. Conservas tu número, tu saldo y tu plan.`,
      },
    ],
  },

  // Saldo, recargas y pagos
  {
    slug: "consultar-saldo",
    category: "saldo-recargas-y-pagos",
    question: "¿Cómo consulto mi saldo y la vigencia de mi plan?",
    keywords: ["*100#", "cuántos datos me quedan", "gb restantes", "vencimiento", "consumo"],
    answer: [
      {
        kind: "list",
        items: [
          `En [Consulta tu saldo](${BALANCE_PATH}), sin cuenta: escribe tu número y el código que te enviamos por SMS, y ves tu saldo, tus GB disponibles y la fecha en que vence tu plan.`,
          `En [Mis líneas](${LINES_PATH}), si iniciaste sesión y agregaste tu línea: la página de cada línea muestra su saldo, sus datos, su vigencia y su consumo de los últimos días.`,
          "Marca `*100#` desde tu línea: verás tus GB, minutos y SMS disponibles y la fecha en que vence tu plan. Es gratis y funciona aunque no tengas datos.",
          "[Pregúntanos por WhatsApp](chat) desde tu línea.",
        ],
      },
      {
        kind: "paragraph",
        text: `Consultar tu saldo, tu consumo y tu vigencia nunca tiene costo. ${RUNNING_OUT_ALERT_TEXT}`,
      },
    ],
  },
  {
    slug: "como-hago-una-recarga",
    category: "saldo-recargas-y-pagos",
    question: "¿Cómo hago una recarga?",
    keywords: ["recargar", "saldo", "renovar plan", "comprar plan", "montos", "oxxo"],
    answer: [
      {
        kind: "steps",
        title: "En línea, sin necesidad de cuenta:",
        items: [
          `Entra a [Recarga](${TOPUP_PATH}).`,
          "Escribe dos veces el número de 10 dígitos que quieres recargar. Si iniciaste sesión, también puedes elegir una de tus líneas guardadas.",
          "Elige el monto.",
          "Elige cómo pagar: con tarjeta de crédito o débito en la página segura de pago, en efectivo en una tienda con la ficha que te damos, o por transferencia SPEI.",
          "Al aprobarse el pago, la recarga se abona a tu línea y tu comprobante muestra el monto, lo que incluye y la fecha en que vence.",
        ],
      },
      {
        kind: "list",
        title: "Montos y lo que incluye cada uno:",
        items: TOPUP_LINES,
      },
      {
        kind: "list",
        title: "Otras formas:",
        items: [
          "[Por WhatsApp](chat): te enviamos una liga de pago segura.",
          "En efectivo, en tiendas de conveniencia, farmacias y comercios afiliados: da tu número de 10 dígitos y el monto que quieres.",
        ],
      },
      {
        kind: "paragraph",
        text: "Si recargas antes de que venza tu plan, los GB se suman a los que te quedan. Aunque el pago se envíe dos veces por error (por ejemplo, con un doble clic), cada recarga se cobra una sola vez.",
      },
    ],
  },
  {
    slug: "formas-de-pago",
    category: "saldo-recargas-y-pagos",
    question: "¿Qué formas de pago aceptan?",
    keywords: [
      "métodos de pago",
      "tarjeta",
      "visa",
      "mastercard",
      "american express",
      "efectivo",
      "oxxo",
      "transferencia",
      "clabe",
    ],
    answer: [
      {
        kind: "paragraph",
        text: "Tus planes y tus recargas los pagas en línea de tres formas. Los precios ya incluyen IVA.",
      },
      {
        kind: "list",
        items: [
          "Tarjeta de crédito o de débito Visa, Mastercard y American Express, incluidas las tarjetas digitales de bancos y billeteras mexicanas. El pago se aprueba al momento.",
          "Efectivo en tienda: te damos una ficha con código de barras para pagar en OXXO, 7-Eleven y otras tiendas. La tienda puede cobrar una comisión por el servicio.",
          "Transferencia SPEI: te damos una CLABE y una referencia para transferir desde la app o el portal de tu banco.",
        ],
      },
      {
        kind: "paragraph",
        text: "La ficha y los datos de la transferencia dicen hasta cuándo puedes pagar; si el plazo vence sin pago, el pedido o la recarga se cancelan sin cargo. Con tarjeta, el pago se hace en la página segura de nuestro procesador de pagos: Conecta Móvil nunca ve ni guarda el número completo de tu tarjeta ni su código de seguridad, y nunca te lo pedirá por teléfono, SMS ni WhatsApp.",
      },
      {
        kind: "paragraph",
        text: "Tus recargas también puedes pagarlas en efectivo en tiendas de conveniencia, farmacias y comercios afiliados, o con la liga de pago segura que te enviamos [por WhatsApp](chat).",
      },
    ],
  },
  {
    slug: "factura-de-recargas",
    category: "saldo-recargas-y-pagos",
    question: "¿Puedo pedir factura de mis recargas?",
    keywords: ["cfdi", "facturar", "rfc", "comprobante fiscal"],
    answer: [
      {
        kind: "paragraph",
        text: `Sí, en línea. Cada recarga genera un comprobante con el monto pagado (con IVA incluido) y lo que incluye; la factura (CFDI 4.0) la pides en [Facturación](${INVOICING_PATH}) ${invoicingWindowText()}: por ejemplo, ${invoicingExampleText()}.`,
      },
      {
        kind: "steps",
        items: [
          "Abre tu comprobante (el enlace viene en el correo de tu recarga) y elige «Solicitar factura». Si no lo tienes a la mano, en Facturación escribe el folio de tu recarga (REC-…) y el correo con que la pagaste, y te enviamos el enlace.",
          "Escribe tu RFC, tu nombre o razón social, tu código postal fiscal y tu régimen fiscal, tal como aparecen en tu constancia de situación fiscal, y el uso del CFDI.",
          "Descarga la factura (PDF y XML) al momento; también te la enviamos por correo.",
        ],
      },
      {
        kind: "paragraph",
        text: "Tus pedidos se facturan igual, con el folio del pedido (PED-…). Si tienes dudas, [escríbenos por WhatsApp](chat).",
      },
    ],
  },
  {
    slug: "pago-rechazado",
    category: "saldo-recargas-y-pagos",
    question: "Mi pago fue rechazado, ¿qué hago?",
    keywords: [
      "pago declinado",
      "error de pago",
      "cargo",
      "tarjeta rechazada",
      "fondos insuficientes",
    ],
    answer: [
      {
        kind: "list",
        title: "Las causas más comunes son:",
        items: [
          "Fondos o crédito insuficientes.",
          "Datos de la tarjeta, fecha de vencimiento o código de seguridad mal escritos.",
          "Tu banco bloqueó la compra por seguridad o la tarjeta no tiene activadas las compras en línea. Puedes activarlas en la app de tu banco.",
        ],
      },
      {
        kind: "paragraph",
        text: "Corrige el dato, usa otra tarjeta o elige pagar en efectivo o por SPEI, e intenta de nuevo: un pago rechazado no genera cargo. Si ves un cargo en tu estado de cuenta sin que recibieras confirmación, es una retención temporal que tu banco libera en unos días. Si no la libera, [escríbenos por WhatsApp](chat) con la fecha y el monto.",
      },
    ],
  },
  {
    slug: "que-pasa-si-no-recargo",
    category: "saldo-recargas-y-pagos",
    question: "¿Qué pasa si no recargo antes de que venza mi plan?",
    keywords: ["vencimiento", "vigencia", "perder número", "línea inactiva", "baja", NUMBER_KEPT],
    answer: [
      {
        kind: "paragraph",
        text: `Al vencer tu plan dejas de navegar, llamar y enviar SMS, pero sigues recibiendo llamadas y SMS, y puedes llamar gratis al 911 y a nuestra línea de atención. Conservas tu número durante los ${NUMBER_KEPT} siguientes: recarga en ese plazo y todo vuelve a funcionar, y los GB que no usaste se te abonan.`,
      },
      {
        kind: "paragraph",
        text: `Si pasan ${NUMBER_KEPT} sin ninguna recarga, podemos dar de baja el número, siempre con un aviso por SMS ${countText(NUMBER_RELEASE_NOTICE_DAYS, "día", "días")} antes. Para recargar, entra a [Recarga](${TOPUP_PATH}): no necesitas cuenta.`,
      },
    ],
  },

  // Portabilidad
  {
    slug: "como-cambiarme-conservando-mi-numero",
    category: "portabilidad",
    question: "¿Cómo me cambio a Conecta Móvil conservando mi número (portabilidad)?",
    keywords: ["portar", "cambiar de compañía", "mismo número", "telcel", "at&t", "movistar"],
    answer: [
      {
        kind: "paragraph",
        text: "Cambiarte con tu mismo número (portabilidad) es gratis y se hace en línea:",
      },
      {
        kind: "steps",
        items: [
          "Compra tu SIM o eSIM de Conecta Móvil con un plan en [Planes](/plans).",
          "Desde la línea que quieres traer, llama al `051` o envía un SMS con la palabra `NIP` al `051`. Recibirás por SMS tu NIP de portabilidad de 4 dígitos.",
          `Llena la solicitud en [Portabilidad](${PORTABILITY_PATH}) con tu número, tu NIP, tu nombre, tu correo y tu CURP.`,
          `Guarda el folio que te damos: con él consultas el estado de tu solicitud en [Portabilidad](${PORTABILITY_PATH}), y te avisamos por correo de cada avance.`,
          "Deja tu SIM anterior en el teléfono: mientras tanto tu línea sigue funcionando con tu compañía actual. Cuando se quede sin señal o te avisemos que la portabilidad concluyó, coloca tu SIM de Conecta Móvil (o activa tu eSIM) y reinicia el teléfono.",
        ],
      },
      {
        kind: "paragraph",
        text: `La portabilidad se completa en un máximo de ${PORTABILITY_MAX} después de que tu solicitud es aceptada.`,
      },
    ],
  },
  {
    slug: "nip-de-portabilidad",
    category: "portabilidad",
    question: "¿Qué es el NIP de portabilidad y cómo lo obtengo?",
    keywords: ["051", "código", "nip vencido", "pin"],
    answer: [
      {
        kind: "paragraph",
        text: "Es un código de 4 dígitos que demuestra que eres quien usa la línea y autoriza el cambio de compañía. Para obtenerlo, desde el número que quieres portar:",
      },
      {
        kind: "list",
        items: [
          "Llama al `051` y sigue las instrucciones, o",
          "Envía un SMS con la palabra `NIP` al `051`.",
        ],
      },
      {
        kind: "paragraph",
        text: `Te llega por SMS en unos minutos y es válido por ${NIP_VALIDITY}. Si vence antes de que hagas tu solicitud, pide uno nuevo de la misma forma; es gratis.`,
      },
      {
        kind: "paragraph",
        text: `Escribe tu NIP solo en el formulario de [Portabilidad](${PORTABILITY_PATH}). Nadie de Conecta Móvil te lo pedirá por llamada, SMS ni WhatsApp. Si tu número fue portado sin tu consentimiento, tienes derecho a recuperarlo sin costo: [avísanos por WhatsApp](chat) de inmediato.`,
      },
    ],
  },
  {
    slug: "cuanto-tarda-la-portabilidad",
    category: "portabilidad",
    question: "¿Cuánto tarda la portabilidad y qué pasa con mi saldo?",
    keywords: ["tiempo", PORTABILITY_MAX, "adeudos", "saldo anterior", "estado de la solicitud"],
    answer: [
      {
        kind: "paragraph",
        text: `Por regla de la autoridad, la portabilidad se completa en un máximo de ${PORTABILITY_MAX} después de que tu solicitud es aceptada. Durante el cambio puedes quedarte unos minutos sin servicio. Consulta el estado con tu folio en [Portabilidad](${PORTABILITY_PATH}).`,
      },
      {
        kind: "list",
        title: "Ten en cuenta:",
        items: [
          "El saldo y los beneficios que tengas con tu compañía anterior no se transfieren. Úsalos antes de pedir tu NIP.",
          "Si tenías un plan de renta, tu compañía anterior no puede condicionar la portabilidad al pago de adeudos, pero tampoco los cancela: los pagos pendientes o el equipo a plazos los sigues pagando a esa compañía.",
          "Tus contactos, fotos y apps no cambian: están en tu teléfono, no en la SIM.",
        ],
      },
    ],
  },
  {
    slug: "portabilidad-rechazada",
    category: "portabilidad",
    question: "¿Por qué puede rechazarse mi portabilidad?",
    keywords: ["rechazo", "error", "no procede", "nip incorrecto"],
    answer: [
      {
        kind: "list",
        title: "Los motivos más comunes son:",
        items: [
          `El NIP está mal escrito o ya venció (dura ${NIP_VALIDITY}).`,
          "El número de la solicitud no es el mismo desde el que pediste el NIP.",
          "La línea está suspendida o reportada como robada.",
          "Ya hay otra solicitud de portabilidad en curso para ese número.",
        ],
      },
      {
        kind: "paragraph",
        text: `Si te rechazan, te avisamos por correo con el motivo. Pide un NIP nuevo al \`051\` y haz otra solicitud en [Portabilidad](${PORTABILITY_PATH}). Tu número sigue funcionando con tu compañía anterior mientras tanto.`,
      },
    ],
  },

  // Cobertura y roaming
  {
    slug: "donde-tengo-cobertura",
    category: "cobertura-y-roaming",
    question: "¿Dónde tengo cobertura?",
    keywords: ["señal", "red", "4g", "lte", "mapa de cobertura", "zona"],
    answer: [
      {
        kind: "paragraph",
        text: "Conecta Móvil usa la Red Compartida, una red 4G LTE que llega a la gran mayoría de la población de México, en todos los estados. La señal dentro de edificios, sótanos y zonas rurales alejadas puede variar.",
      },
      {
        kind: "list",
        title: "Para saber cómo es la cobertura donde vives o trabajas:",
        items: [
          "[Envíanos por WhatsApp](chat) el código postal o la dirección y te decimos la cobertura esperada en exteriores y en interiores.",
          "Revisa que tu teléfono soporte la banda 28 (700 MHz): es la que mejor penetra en interiores.",
        ],
      },
      {
        kind: "paragraph",
        text: "Si tenías cobertura y dejaste de tenerla, reinicia tu teléfono y [avísanos por WhatsApp](chat) con la ubicación para reportarlo.",
      },
    ],
  },
  {
    slug: "roaming-estados-unidos-y-canada",
    category: "cobertura-y-roaming",
    question: "¿Puedo usar mi línea en Estados Unidos y Canadá?",
    keywords: ["roaming", "itinerancia", "viaje", "usa", "eua", "extranjero", "internacional"],
    answer: [
      {
        kind: "paragraph",
        text: `Sí. Los minutos, SMS, redes sociales y datos de tu plan se usan en Estados Unidos y Canadá igual que en México, sin costo adicional. Puedes llamar y enviar SMS a números de México, Estados Unidos y Canadá. Las llamadas y SMS a otros países no están incluidos.${
          MEXICO_ONLY.length
            ? ` Excepción: ${planNames(MEXICO_ONLY)} ${MEXICO_ONLY.length === 1 ? "incluye" : "incluyen"} llamadas y SMS solo dentro de México.`
            : ""
        }`,
      },
      {
        kind: "steps",
        title: "Antes de viajar, activa el roaming de datos:",
        items: [
          "En Android: Ajustes (o Configuración) > Conexiones > Redes móviles > Roaming de datos.",
          "En iPhone: Configuración > Celular > Opciones de datos celulares > Roaming de datos.",
        ],
      },
      {
        kind: "paragraph",
        text: "Al llegar, tu teléfono se conecta solo a una red aliada. El roaming es para viajes: si durante dos periodos seguidos más de la mitad de tus días de uso y de tu consumo ocurren fuera de México, te avisamos por SMS y, si sigue así 30 días más, podemos limitar el uso desde el extranjero, como dice la [Política de uso justo](/docs/politica-de-uso-justo.pdf).",
      },
    ],
  },

  // Registro de tu línea (CURP) y seguridad
  ...registrationArticles(),
  {
    slug: "perdi-mi-telefono-o-me-lo-robaron",
    category: "registro-y-seguridad",
    question: "Perdí mi teléfono o me lo robaron, ¿qué hago?",
    keywords: ["robo", "extravío", "sim robada", "bloquear línea", "imei", "suspender"],
    answer: [
      {
        kind: "steps",
        items: [
          "[Escríbenos por WhatsApp](chat) de inmediato desde otro teléfono: para reportes de robo o extravío atendemos las 24 horas. Suspendemos tu línea sin costo para que nadie use tu plan ni reciba tus códigos de verificación.",
          "Pídenos también bloquear el IMEI de tu teléfono, sin costo: lo reportamos como robado para que no funcione con ninguna compañía en México.",
          "Cambia las contraseñas de tu correo, tus redes sociales y tus apps bancarias, y avisa a tu banco.",
          "Si fue un robo, presenta tu denuncia ante la fiscalía o el Ministerio Público de tu estado.",
          "Pide la reposición de tu SIM o eSIM para recuperar tu número.",
        ],
      },
      {
        kind: "paragraph",
        text: "Para confirmar que eres el titular te pedimos tu nombre completo y la CURP vinculada a la línea.",
      },
    ],
  },
  {
    slug: "reposicion-de-sim",
    category: "registro-y-seguridad",
    question: "¿Cómo recupero mi número en una SIM nueva (reposición)?",
    keywords: ["reponer chip", "sim dañada", "sim nueva", "mismo número", "duplicado"],
    answer: [
      {
        kind: "paragraph",
        text: "Si perdiste tu SIM, te la robaron o dejó de funcionar, puedes recuperar tu mismo número con tu saldo y tu plan:",
      },
      {
        kind: "steps",
        items: [
          "[Escríbenos por WhatsApp](chat) y pide la reposición.",
          "Confirma tu identidad con tu nombre completo y la CURP vinculada a la línea.",
          `Elige eSIM (${priceText(SIM_REPLACEMENT_PRICE.esim)}, te enviamos por correo un enlace para ver el código QR) o SIM física (${isFree(SIM_REPLACEMENT_PRICE.physical) ? "sin costo" : `${priceText(SIM_REPLACEMENT_PRICE.physical)}, que pagas con una liga de pago segura`}; llega ${DELIVERY_RANGE_TEXT}, con ${SHIPPING_TEXT}).`,
          "Al activar la SIM nueva, la anterior deja de funcionar para siempre.",
        ],
      },
      {
        kind: "paragraph",
        text: "Solo el titular registrado con su CURP puede pedir una reposición: así evitamos que alguien se quede con tu número.",
      },
    ],
  },
  {
    slug: "mensajes-sospechosos",
    category: "registro-y-seguridad",
    question: "Recibí un mensaje o una llamada que pide mis datos, ¿es de Conecta Móvil?",
    keywords: ["fraude", "extorsión", "estafa", "phishing", "suplantación", "seguridad"],
    answer: [
      {
        kind: "paragraph",
        text: "Conecta Móvil nunca te pide por llamada, SMS ni WhatsApp tu NIP de portabilidad, tus contraseñas, los códigos de verificación que te llegan ni los datos de tu tarjeta. Si alguien te los pide en nuestro nombre, es un intento de fraude.",
      },
      {
        kind: "list",
        items: [
          "No abras enlaces que no terminen en conectamovil.mx.",
          "No compartas códigos que te lleguen por SMS.",
          "Reporta intentos de extorsión al 089 (denuncia anónima) y bloquea el número.",
          "Si ya compartiste algún dato, [avísanos por WhatsApp](chat) para proteger tu línea.",
        ],
      },
    ],
  },
];
