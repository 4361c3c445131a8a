import fs, { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { firstSegment, loggedPath, publicFiles } from "./middlewares";

describe("the request log's path", () => {
  it("masks a line's number, as the pages do, and leaves every other path alone", () => {
    expect(loggedPath("/my-account/lineas/5512345678")).toBe("/my-account/lineas/55••••5678");
    expect(loggedPath("/my-account/lineas/5512345678.data")).toBe(
      "/my-account/lineas/55••••5678.data",
    );
    expect(loggedPath("/recarga/AbC123xyz")).toBe("/recarga/AbC123xyz");
    expect(loggedPath("/pedido/PED-2026-000123")).toBe("/pedido/PED-2026-000123");
    // Not ten digits: not a line.
    expect(loggedPath("/x/123456789012")).toBe("/x/123456789012");
  });
});

describe("the files of public/", () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  async function publicFilesAt(publicDir: string) {
    const app = express();
    app.use(publicFiles(publicDir));
    app.use((req, res) => {
      res.status(404).send(`route ${req.path}`);
    });
    server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("serves every file of public/ and hands every other path to the routes without a stat", async () => {
    const publicDir = mkdtempSync(path.join(tmpdir(), "public-"));
    mkdirSync(path.join(publicDir, "docs"));
    writeFileSync(path.join(publicDir, "favicon.ico"), "icon");
    writeFileSync(path.join(publicDir, "docs", "aviso.pdf"), "pdf");
    const origin = await publicFilesAt(publicDir);
    const stat = vi.spyOn(fs, "stat");
    try {
      expect(await (await fetch(`${origin}/favicon.ico`)).text()).toBe("icon");
      expect(await (await fetch(`${origin}/docs/aviso.pdf`)).text()).toBe("pdf");
      expect(stat).toHaveBeenCalledTimes(2);
      stat.mockClear();
      for (const pathname of [
        "/plans",
        "/plans.data",
        "/my-account/lineas/5512345678.data",
        "/docs",
      ]) {
        expect(await (await fetch(`${origin}${pathname}`)).text()).toBe(`route ${pathname}`);
      }
      // A file's path under public/'s entries that is not there goes on to the routes too.
      expect(await (await fetch(`${origin}/docs/otro.pdf`)).text()).toBe("route /docs/otro.pdf");
      expect(stat).toHaveBeenCalledTimes(1);
    } finally {
      stat.mockRestore();
    }
  });

  it("names the first segment of a path", () => {
    expect(firstSegment("/favicon.ico")).toBe("favicon.ico");
    expect(firstSegment("/brand/logo.svg")).toBe("brand");
    expect(firstSegment("/")).toBe("");
  });
});
