import { describe, expect, it } from "vitest";
import { opsActor } from "./changes.server";

describe("the actor", () => {
  it("names the operating-system user", () => {
    expect(opsActor()).toMatch(/^ops:.+$/);
  });
});
