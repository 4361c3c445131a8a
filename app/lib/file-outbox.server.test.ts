import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { newOutboxId, readOutboxFiles, recipientKey, writeOutboxFile } from "./file-outbox.server";

interface Note {
  to: string;
  text: string;
}

const at = (second: number) => new Date(Date.UTC(2026, 11, 7, 12, 0, second));

describe("a development outbox", () => {
  it("names each file by its time and its recipient, and lists the newest first", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "outbox-"));
    for (const [second, to] of [
      [1, "ana@example.mx"],
      [2, "luis@example.mx"],
      [3, "ana@example.mx"],
    ] as const) {
      const id = newOutboxId(at(second), to);
      expect(id).toMatch(
        new RegExp(`^2026-12-07T12-00-0${second}-000Z-${recipientKey(to)}-[0-9a-f]{12}$`),
      );
      await writeOutboxFile(dir, id, { to, text: `mensaje ${second}` });
    }
    const all = await readOutboxFiles<Note>(dir, { limit: 10 });
    expect(all.map((note) => note.text)).toEqual(["mensaje 3", "mensaje 2", "mensaje 1"]);
    const ana = await readOutboxFiles<Note>(dir, {
      limit: 10,
      recipient: "ana@example.mx",
      keep: (note) => note.to === "ana@example.mx",
    });
    expect(ana.map((note) => note.text)).toEqual(["mensaje 3", "mensaje 1"]);
  });

  it("opens only the files named for the recipient asked for, and those of before names had one", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "outbox-"));
    // Named for someone else: a look for Ana never opens it, whatever it holds.
    const misnamed = newOutboxId(at(1), "luis@example.mx");
    writeFileSync(
      path.join(dir, `${misnamed}.json`),
      JSON.stringify({ to: "ana@example.mx", text: "no se abre" }),
    );
    // Written before names carried the recipient: opened, and kept by what it holds.
    writeFileSync(
      path.join(dir, "2026-12-07T12-00-02-000Z-0123456789ab.json"),
      JSON.stringify({ to: "ana@example.mx", text: "de antes" }),
    );
    await writeOutboxFile(dir, newOutboxId(at(3), "ana@example.mx"), {
      to: "ana@example.mx",
      text: "nuevo",
    });
    const ana = await readOutboxFiles<Note>(dir, {
      limit: 10,
      recipient: "ana@example.mx",
      keep: (note) => note.to === "ana@example.mx",
    });
    expect(ana.map((note) => note.text)).toEqual(["nuevo", "de antes"]);
  });
});
