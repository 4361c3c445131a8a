import { inflateSync } from "node:zlib";

/**
 * The text a pdfkit PDF shows, one run per line: its content streams inflated and each `TJ`'s
 * hex strings read as WinAnsi (Latin-1 for Spanish). Enough to check what a receipt says.
 */
export function pdfText(pdf: Buffer | Uint8Array): string {
  const raw = Buffer.from(pdf).toString("latin1");
  const runs: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    const bytes = Buffer.from(match[1]!, "latin1");
    let content: string;
    try {
      content = inflateSync(bytes).toString("latin1");
    } catch {
      content = match[1]!;
    }
    for (const shown of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      runs.push(
        [...shown[1]!.matchAll(/<([0-9a-fA-F]*)>/g)]
          .map((hex) => Buffer.from(hex[1]!, "hex").toString("latin1"))
          .join(""),
      );
    }
  }
  return runs.join("\n");
}
