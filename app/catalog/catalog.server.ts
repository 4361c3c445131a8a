import type { Db } from "~/db/db.server";
import { nowIso } from "~/db/db.server";
import type { PlansTable } from "~/db/schema";
import type { Plan } from "./plan";

/** The plans on sale, read from the database once and kept in memory. */
export interface Catalogue {
  /** Plans on sale, in catalogue order. */
  plans(): readonly Plan[];
  /** A plan on sale, or undefined. */
  find(id: string): Plan | undefined;
  /** Replaces the plans in the database with `source` and refreshes the memory copy. */
  seed(source: readonly Plan[]): Promise<void>;
  /** Drops the memory copy and reads the database again. */
  reload(): Promise<void>;
}

const flag = (value: boolean) => (value ? 1 : 0) as 0 | 1;

function toRow(plan: Plan, position: number, updatedAt: string): PlansTable {
  return {
    id: plan.id,
    name: plan.name,
    price: plan.price,
    validity_days: plan.validityDays,
    data_gb: plan.dataGb,
    minutes: plan.minutes,
    sms: plan.sms,
    covers_mexico: flag(plan.coverage.mexico),
    covers_usa: flag(plan.coverage.usa),
    covers_canada: flag(plan.coverage.canada),
    unlimited_social: flag(plan.unlimitedSocial),
    social_networks: plan.socialNetworks.join(", "),
    hotspot: flag(plan.hotspot),
    sim_physical: flag(plan.simTypes.includes("physical")),
    sim_esim: flag(plan.simTypes.includes("esim")),
    fair_use_note: plan.fairUseNote,
    tariff_registration: plan.tariffRegistration,
    position,
    active: 1,
    updated_at: updatedAt,
  };
}

function fromRow(row: PlansTable): Plan {
  return {
    id: row.id,
    name: row.name,
    price: Number(row.price),
    validityDays: Number(row.validity_days),
    dataGb: Number(row.data_gb),
    minutes: row.minutes === null ? null : Number(row.minutes),
    sms: row.sms === null ? null : Number(row.sms),
    coverage: {
      mexico: Boolean(row.covers_mexico),
      usa: Boolean(row.covers_usa),
      canada: Boolean(row.covers_canada),
    },
    unlimitedSocial: Boolean(row.unlimited_social),
    socialNetworks: row.social_networks ? row.social_networks.split(", ") : [],
    hotspot: Boolean(row.hotspot),
    simTypes: [
      ...(row.sim_physical ? (["physical"] as const) : []),
      ...(row.sim_esim ? (["esim"] as const) : []),
    ],
    fairUseNote: row.fair_use_note,
    tariffRegistration: row.tariff_registration,
  };
}

export function createCatalogue(db: Db): Catalogue {
  let cached: { list: readonly Plan[]; byId: Map<string, Plan> } | null = null;

  async function load() {
    const rows = await db
      .selectFrom("plans")
      .selectAll()
      .where("active", "=", 1)
      .orderBy("position")
      .execute();
    const list = Object.freeze(rows.map(fromRow));
    cached = { list, byId: new Map(list.map((plan) => [plan.id, plan])) };
  }

  function current() {
    if (!cached) throw new Error("The catalogue is used before it was loaded");
    return cached;
  }

  return {
    plans: () => current().list,
    find: (id) => current().byId.get(id),
    async seed(source) {
      const updatedAt = nowIso();
      await db.transaction().execute(async (trx) => {
        await trx.updateTable("plans").set({ active: 0, updated_at: updatedAt }).execute();
        for (const [position, plan] of source.entries()) {
          const row = toRow(plan, position, updatedAt);
          const { id: _id, ...changes } = row;
          await trx
            .insertInto("plans")
            .values(row)
            .onConflict((conflict) => conflict.column("id").doUpdateSet(changes))
            .execute();
        }
      });
      await load();
    },
    reload: load,
  };
}
