import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The alerting rules an operator loads into Prometheus (decision 0143). */
export const ALERT_RULES_FILE = fileURLToPath(
  new URL("../../deploy/prometheus/alerts.yml", import.meta.url),
);

/** Series Prometheus makes itself for every target, not the storefront's /metrics. */
const PROMETHEUS_OWN = new Set(["up"]);

/**
 * Every metric the rules' expressions read, as /metrics names it: a histogram's `_bucket`,
 * `_count` and `_sum` series are its one metric. Label names (`route`, `le`, `check`) and PromQL's
 * functions and keywords are told apart by where the name stands: before `{`, `[` or a comparison,
 * never followed by `(`, and not inside a `by (...)`.
 */
export function metricNamesOfRules(
  yaml: string = readFileSync(ALERT_RULES_FILE, "utf8"),
): string[] {
  const expressions: string[] = [];
  const lines = yaml.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const match = /^(\s*)expr:\s*(.*)$/.exec(lines[index]!);
    if (!match) continue;
    const indent = match[1]!.length;
    let expression = match[2]!.replace(/^>-?\s*$|^\|-?\s*$/, "");
    while (index + 1 < lines.length && /^\s*$|^\s+/.test(lines[index + 1]!)) {
      const next = lines[index + 1]!;
      if (next.trim() === "" || next.search(/\S/) <= indent) break;
      expression += ` ${next.trim()}`;
      index++;
    }
    expressions.push(expression);
  }
  const names = new Set<string>();
  for (const expression of expressions) {
    const withoutGroupings = expression
      .replace(/\b(by|without)\s*\([^)]*\)/g, " ")
      .replace(/\{[^}]*\}/g, " ")
      .replace(/"[^"]*"/g, " ");
    for (const [, name, after] of withoutGroupings.matchAll(
      /\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(\s*\(?)/g,
    )) {
      if (after!.includes("(") || /^\d/.test(name!)) continue;
      if (["and", "or", "unless", "bool", "offset"].includes(name!)) continue;
      if (/^\d+(\.\d+)?(e\d+)?$/.test(name!) || /^e\d+$/.test(name!)) continue;
      names.add(name!.replace(/_(bucket|count|sum)$/, ""));
    }
  }
  return [...names].filter((name) => !PROMETHEUS_OWN.has(name)).sort();
}
