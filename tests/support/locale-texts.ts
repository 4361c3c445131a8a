import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Every message of the Spanish locale files, `{{placeholders}}` matching anything. */
function localePatterns(): RegExp[] {
  const directory = path.resolve("public/locales/es");
  const patterns: RegExp[] = [];
  const collect = (node: unknown) => {
    if (typeof node === "string") {
      const literal = node
        .split(/\{\{[^}]+\}\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join("[\\s\\S]*?");
      patterns.push(new RegExp(`^${literal}$`));
    } else if (node && typeof node === "object") {
      Object.values(node).forEach(collect);
    }
  };
  for (const file of readdirSync(directory)) {
    collect(JSON.parse(readFileSync(path.join(directory, file), "utf8")));
  }
  return patterns;
}

let patterns: RegExp[] | null = null;

/** Whether a customer-facing text is one of the Spanish locale messages, as written there. */
export function isLocaleText(text: string): boolean {
  patterns ??= localePatterns();
  return patterns.some((pattern) => pattern.test(text));
}
