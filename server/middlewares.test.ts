import fs, { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loggedPath, publicFiles } from "./middlewares";

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
  let publicDir: string;
  let server: Server;

  beforeEach(async () => {
    publicDir = mkdtempSync(path.join(tmpdir(), "public-"));
    mkdirSync(path.join(publicDir, "docs"));
    writeFileSync(path.join(publicDir, "favicon.ico"), "icon");
    writeFileSync(path.join(publicDir, "docs", "aviso.pdf"), "pdf");
    const app = express();
    app.use(publicFiles(publicDir));
    app.use((req, res) => {
      res.status(404).send(`route ${req.path}`);
    });
    server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
  });

  afterEach(async () => {
    server.close();
    await once(server, "close");
    rmSync(publicDir, { recursive: true, force: true });
  });

  it("serves public/'s files and asks the disk for nothing else but a file's path", async () => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const stat = vi.spyOn(fs, "stat");
    const lookedUp = () => stat.mock.calls.map(([file]) => path.relative(publicDir, String(file)));
    try {
      expect(await (await fetch(`${origin}/favicon.ico`)).text()).toBe("icon");
      expect(await (await fetch(`${origin}/docs/aviso.pdf`)).text()).toBe("pdf");
      expect(lookedUp()).toEqual(["favicon.ico", path.join("docs", "aviso.pdf")]);
      stat.mockClear();
      for (const pathname of [
        "/plans",
        "/plans.data",
        "/_.data",
        "/my-account/lineas/5512345678.data",
        "/docs",
      ]) {
        expect(await (await fetch(`${origin}${pathname}`)).text()).toBe(`route ${pathname}`);
      }
      expect(lookedUp()).toEqual([]);
      // A file's path that is not in public/ is looked up, then goes on to the routes.
      expect(await (await fetch(`${origin}/docs/otro.pdf`)).text()).toBe("route /docs/otro.pdf");
      expect(lookedUp()).toEqual([path.join("docs", "otro.pdf")]);
    } finally {
      stat.mockRestore();
    }
  });
});
